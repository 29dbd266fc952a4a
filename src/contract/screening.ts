/**
 * Screening provider data attached to an alert (SPEC 2.4.1): the search as requested, its
 * outcome and the matched entities. The field name uses a neutral word for the provider.
 */
import { Type, type Static } from '@sinclair/typebox';
import {
  CountryAlpha2,
  ScreeningEntityType,
  ScreeningMatchStatus,
  ScreeningRiskLevel,
  ScreeningType,
} from './enums.js';
import { DateTime, Maybe, Nullable, OpenObject, Uuid } from './schema-helpers.js';
import { ScreeningEntity, ScreeningHit } from './screening-hits.js';

const Str = Type.String();
const Num = Type.Number();
const Opt = Type.Optional;

export const ScreeningFilters = Type.Object(
  {
    types: Maybe(Type.Array(ScreeningType)),
    birth_year: Maybe(Num),
    remove_deceased: Maybe(Type.Number({ maximum: 1 })),
    entity_type: Maybe(ScreeningEntityType),
    country_codes: Maybe(Type.Array(CountryAlpha2)),
  },
  { title: 'ScreeningFilters' },
);
export type ScreeningFilters = Static<typeof ScreeningFilters>;

export const ScreeningUser = Type.Object(
  {
    id: Num,
    email: Type.String({ format: 'email' }),
    name: Str,
    phone: Str,
    created_at: DateTime(),
    user_is_active: Type.Boolean(),
  },
  { title: 'ScreeningUser' },
);
export type ScreeningUser = Static<typeof ScreeningUser>;

export const SearchResult = Type.Object(
  {
    client_ref: Str,
    id: Num,
    ref: Str,
    searcher_id: Num,
    assignee_id: Num,
    filters: Opt(ScreeningFilters),
    match_status: ScreeningMatchStatus,
    risk_level: ScreeningRiskLevel,
    search_term: Str,
    submitted_term: Str,
    total_hits: Num,
    total_matches: Num,
    total_blacklist_hits: Num,
    created_at: DateTime(),
    updated_at: DateTime(),
    tags: Opt(Type.Array(OpenObject({}))),
    labels: Type.Array(Type.Unknown()),
    limit: Num,
    offset: Num,
    // "all required" in the spec is read as the users' fields; the objects themselves are optional.
    searcher: Opt(ScreeningUser),
    assignee: Opt(ScreeningUser),
    hits: Opt(Type.Array(ScreeningHit)),
    blacklist_hits: Opt(Type.Array(Type.Unknown())),
  },
  { title: 'SearchResult', description: 'search outcome' },
);
export type SearchResult = Static<typeof SearchResult>;

export const ScreeningRequestTag = OpenObject(
  { name: Opt(Str), value: Opt(Str) },
  { title: 'ScreeningRequestTag' },
);

export const ScreeningRequestData = Type.Object(
  {
    search_term: Type.String({ description: 'entity name' }),
    client_ref: Type.String({
      description: 'caller reference used for tracking searches and automatic whitelisting of recurring results',
    }),
    search_profile: Maybe(Type.String({ description: 'profile identifier' })),
    fuzziness: Maybe(
      Type.Number({ maximum: 1, description: 'how closely results must match the name; overridden by exact_match' }),
    ),
    offset: Maybe(Type.Number({ description: 'start position of returned matches' })),
    limit: Maybe(Type.Number({ description: 'number of matches per search' })),
    filters: Opt(ScreeningFilters),
    tags: Maybe(Type.Array(ScreeningRequestTag)),
    share_url: Maybe(Type.Number({ maximum: 1, description: 'request for a shareable public URL' })),
    exact_match: Maybe(
      Type.Boolean({
        description:
          'disables standard and optional matching behaviours; fuzziness 0 disables single-letter typo matching only',
      }),
    ),
  },
  { title: 'ScreeningRequestData', description: 'search request as submitted' },
);
export type ScreeningRequestData = Static<typeof ScreeningRequestData>;

export const ScreeningProviderData = Type.Object(
  {
    id: Uuid(),
    customerId: Uuid(),
    searchId: Nullable(Num),
    searchRef: Nullable(Str),
    searchResult: SearchResult,
    searchEntities: Opt(Nullable(Type.Array(ScreeningEntity))),
    requestData: ScreeningRequestData,
    executionId: Str,
    alertId: Nullable(Uuid()),
    isMonitored: Nullable(Type.Boolean()),
    createdAt: DateTime(),
    updatedAt: DateTime(),
  },
  { title: 'ScreeningProviderData' },
);
export type ScreeningProviderData = Static<typeof ScreeningProviderData>;
