/**
 * The pieces of screening provider data that describe matched entities (SPEC 2.4.1): search
 * hits with their `doc`, and the `searchEntities` items with their key information.
 * Fields whose type the spec does not give (source_notes, death_age, ...) accept any value.
 */
import { Type, type Static } from '@sinclair/typebox';
import { ScreeningEntityType, ScreeningMatchStatus, ScreeningRiskLevel, ScreeningType } from './enums.js';
import { DateTime, Maybe, Nullable, OpenObject } from './schema-helpers.js';

const Str = Type.String();
const Strings = Type.Array(Str);
const AnyArray = Type.Array(Type.Unknown());
const Opt = Type.Optional;

export const ScreeningMedia = Type.Object(
  {
    date: Opt(DateTime()),
    snippet: Str,
    title: Str,
    url: Type.String({ format: 'uri' }),
  },
  { title: 'ScreeningMedia' },
);

export const ScreeningAssociate = Type.Object({ association: Str, name: Str }, { title: 'ScreeningAssociate' });

export const ScreeningAka = Type.Object({ name: Opt(Str) }, { title: 'ScreeningAka' });

export const ScreeningDocField = Type.Object(
  { name: Str, source: Opt(Str), value: Str, locale: Opt(Str), tag: Opt(Str) },
  { title: 'ScreeningDocField' },
);

export const ScreeningNameMatch = Type.Object(
  { match_types: Opt(Strings), query_term: Opt(Str) },
  { title: 'ScreeningNameMatch' },
);

export const ScreeningMatchTypesDetail = Type.Object(
  {
    aml_types: Strings,
    matching_name: Str,
    name_matches: Type.Array(ScreeningNameMatch),
    secondary_matches: AnyArray,
    sources: Strings,
  },
  { title: 'ScreeningMatchTypesDetail' },
);

export const ScreeningDoc = Type.Object(
  {
    id: Str,
    last_updated_utc: DateTime(),
    created_utc: DateTime(),
    fields: Opt(Type.Array(ScreeningDocField)),
    types: Type.Array(ScreeningType),
    name: Str,
    entity_type: ScreeningEntityType,
    aka: Type.Array(ScreeningAka),
    associates: Opt(Type.Array(ScreeningAssociate)),
    sources: Strings,
    keywords: AnyArray,
    media: Opt(Type.Array(ScreeningMedia)),
    source_notes: Opt(Type.Unknown()),
    match_types: Strings,
    match_types_details: Type.Array(ScreeningMatchTypesDetail),
  },
  { title: 'ScreeningDoc' },
);
export type ScreeningDoc = Static<typeof ScreeningDoc>;

export const ScreeningHit = Type.Object(
  {
    doc: ScreeningDoc,
    match_status: ScreeningMatchStatus,
    is_whitelisted: Type.Boolean(),
    score: Type.Number(),
  },
  { title: 'ScreeningHit' },
);
export type ScreeningHit = Static<typeof ScreeningHit>;

export const ScreeningKeyInformation = Type.Object(
  {
    name: Str,
    entity_type: ScreeningEntityType,
    types: Maybe(Type.Array(ScreeningType)),
    grouped_types: Maybe(Type.Array(Type.Object({ type: Opt(Str) }, { title: 'ScreeningGroupedType' }))),
    match_types: Maybe(Strings),
    sources: Maybe(Strings),
    source_notes: Opt(Type.Unknown()),
    aka: Maybe(Type.Array(ScreeningAka)),
    date_of_birth: Maybe(Str),
    dates_of_birth: Maybe(Strings),
    match_status: Maybe(ScreeningMatchStatus),
    risk_level: Maybe(ScreeningRiskLevel),
    is_whitelisted: Maybe(Type.Boolean()),
    age: Maybe(Type.Number()),
    death_age: Opt(Type.Unknown()),
    date_of_death: Opt(Type.Unknown()),
    primary_country: Opt(Type.Unknown()),
    country_names: Maybe(Str),
    designation: Maybe(Str),
    associates: Maybe(Type.Array(ScreeningAssociate)),
    uncategorized: Maybe(OpenObject({})),
    keywords: Maybe(AnyArray),
    assets: Maybe(AnyArray),
    related: Maybe(AnyArray),
    fields: Maybe(AnyArray),
    media: Maybe(Type.Array(ScreeningMedia)),
    full_listing: Maybe(OpenObject({})),
    navigation: Maybe(
      Type.Object({ next: Opt(Type.Unknown()), previous: Opt(Type.Unknown()) }, { title: 'ScreeningNavigation' }),
    ),
  },
  { title: 'ScreeningKeyInformation' },
);
export type ScreeningKeyInformation = Static<typeof ScreeningKeyInformation>;

export const ScreeningEntity = Type.Object(
  {
    id: Str,
    last_updated_utc: DateTime(),
    created_utc: DateTime(),
    key_information: Opt(Nullable(ScreeningKeyInformation)),
  },
  { title: 'ScreeningEntity' },
);
export type ScreeningEntity = Static<typeof ScreeningEntity>;
