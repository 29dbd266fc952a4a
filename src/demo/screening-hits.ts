// Matches returned by an AML screening search (SPEC 2.4.1 hits and searchEntities). Hits are
// the bulk of a large alert, so each is built from compact tables rather than many faker calls.
import type { Faker } from '@faker-js/faker';
import { SCREENING_TYPES } from '../contract/enums.js';
import { DAY_MS, dateOnly, isoAt } from './dates.js';
import type { CustomerIdentity } from './identities.js';
import { HIGH_RISK_ALPHA3, HIGH_RISK_COUNTRIES } from './places.js';
import { randomAlnum, randInt, pick } from './seeding.js';
import * as names from './names.js';

type ScreeningType = (typeof SCREENING_TYPES)[number];

interface ListSource {
  key: string;
  name: string;
  url: string;
  types: readonly ScreeningType[];
}

const SOURCES: readonly ListSource[] = [
  { key: 'ofac-sdn-list', name: 'OFAC SDN List', url: 'https://sanctionssearch.ofac.treas.gov/', types: ['sanction'] },
  { key: 'eu-consolidated-list', name: 'EU Consolidated Financial Sanctions List', url: 'https://data.europa.eu/', types: ['sanction'] },
  { key: 'un-security-council', name: 'UN Security Council Consolidated List', url: 'https://www.un.org/securitycouncil/', types: ['sanction'] },
  { key: 'uk-ofsi-list', name: 'UK OFSI Consolidated List', url: 'https://www.gov.uk/government/publications/financial-sanctions-consolidated-list-of-targets', types: ['sanction'] },
  { key: 'fatf-warnings', name: 'Regulator warning notices', url: 'https://www.fatf-gafi.org/', types: ['warning', 'fitness-probity'] },
  { key: 'pep-national-parliaments', name: 'National parliaments (PEP)', url: 'https://www.ipu.org/', types: ['pep', 'pep-class-1'] },
  { key: 'pep-regional-government', name: 'Regional government officials (PEP)', url: 'https://www.example.gov/officials', types: ['pep', 'pep-class-2', 'pep-class-3'] },
  { key: 'pep-state-enterprises', name: 'State-owned enterprise executives (PEP)', url: 'https://www.example.org/soe', types: ['pep', 'pep-class-4'] },
  { key: 'adverse-media-global', name: 'Global adverse media', url: 'https://news.example.com/', types: ['adverse-media', 'adverse-media-general', 'adverse-media-v2-other-minor'] },
  { key: 'adverse-media-financial', name: 'Financial crime media', url: 'https://news.example.com/finance', types: ['adverse-media-financial-crime', 'adverse-media-fraud', 'adverse-media-v2-financial-aml-cft', 'adverse-media-v2-fraud-linked'] },
  { key: 'adverse-media-violent', name: 'Violent crime media', url: 'https://news.example.com/crime', types: ['adverse-media-violent-crime', 'adverse-media-v2-violence-aml-cft', 'adverse-media-v2-violence-non-aml-cft', 'adverse-media-sexual-crime'] },
  { key: 'adverse-media-terror', name: 'Terrorism and narcotics media', url: 'https://news.example.com/security', types: ['adverse-media-terrorism', 'adverse-media-narcotics', 'adverse-media-v2-terrorism', 'adverse-media-v2-narcotics-aml-cft'] },
  { key: 'adverse-media-business', name: 'Business and regulatory media', url: 'https://news.example.com/business', types: ['adverse-media-v2-property', 'adverse-media-v2-cybercrime', 'adverse-media-v2-general-aml-cft', 'adverse-media-v2-regulatory', 'adverse-media-v2-financial-difficulty', 'adverse-media-v2-other-financial', 'adverse-media-v2-other-serious'] },
];

const ASSOCIATIONS = ['spouse', 'child', 'sibling', 'business associate', 'director', 'parent company', 'former spouse'];
const POSITIONS = ['Member of Parliament', 'Deputy Minister of Finance', 'Regional Governor', 'Board member, state energy company', 'Ambassador', 'Mayor'];
const MEDIA_TITLES = ['Regulator fines trading firm over compliance failures', 'Court hears case on alleged money laundering scheme', 'Investigation into procurement contracts widens', 'Sanctions list updated with new designations', 'Former official questioned over offshore accounts'];
const MEDIA_SNIPPETS = [
  'prosecutors allege that funds were routed through a network of shell companies registered abroad',
  'the authority said the firm had failed to carry out adequate due diligence on high-risk customers',
  'documents seen by reporters show payments to accounts controlled by relatives of the official',
  'the designation freezes any assets held in the jurisdiction and prohibits dealings with the listed person',
];

export interface HitContext {
  faker: Faker;
  customer: CustomerIdentity;
  atMs: number;
  entityType: 'person' | 'company';
}

function variantName(ctx: HitContext): string {
  const { faker, customer } = ctx;
  if (ctx.entityType === 'company') {
    const core = customer.name.split(' ').slice(0, 2).join(' ');
    return pick(faker, [core, `${core} Group`, `${core} International`, `${customer.name.split(' ')[0] ?? core} ${names.lastName(faker)}`]);
  }
  const variant = randInt(faker, 0, 3);
  if (variant === 0) return customer.name;
  if (variant === 1) return `${customer.firstName} ${names.lastName(faker)}`;
  if (variant === 2) return `${names.firstName(faker)} ${customer.lastName}`;
  return `${customer.firstName.charAt(0)}. ${customer.lastName}`;
}

function akaName(ctx: HitContext): string {
  const { faker } = ctx;
  if (ctx.entityType === 'person') return names.fullName(faker);
  return `${names.lastName(faker)} ${pick(faker, ['Trading', 'Holdings', 'Group'])}`;
}

function docFields(ctx: HitContext, sources: readonly ListSource[], birthYear: number): Record<string, string>[] {
  const { faker } = ctx;
  const country = pick(faker, HIGH_RISK_ALPHA3);
  const fields: Record<string, string>[] = [];
  for (const s of sources) {
    fields.push({ name: 'Countries', source: s.key, value: country, tag: 'country_names' });
    fields.push({ name: 'Listing Id', source: s.key, value: randomAlnum(faker, 10, 'upper') });
    if (s.types.includes('sanction')) fields.push({ name: 'Program', source: s.key, value: pick(faker, ['RUSSIA-EO14024', 'IRAN', 'SDGT', 'DPRK3', 'BELARUS']) });
    if (s.types.some((t) => t.startsWith('pep'))) fields.push({ name: 'Political Position', source: s.key, value: pick(faker, POSITIONS), locale: 'en' });
  }
  if (ctx.entityType === 'person') {
    fields.push({ name: 'Date of Birth', value: String(birthYear), tag: 'date_of_birth' });
    fields.push({ name: 'Gender', value: pick(faker, ['male', 'female']) });
  }
  return fields;
}

function sourceNotes(sources: readonly ListSource[], listedMs: number): Record<string, unknown> {
  return Object.fromEntries(sources.map((s) => [s.key, { name: s.name, url: s.url, listing_started_utc: isoAt(listedMs), aml_types: s.types.slice(0, 2) }]));
}

/** One search hit: a listed entity whose name resembles the customer's, with its document. */
export function screeningHit(ctx: HitContext, matchStatus: string): Record<string, unknown> {
  const { faker } = ctx;
  const sources = faker.helpers.arrayElements(SOURCES, { min: 1, max: 3 });
  const types = [...new Set(sources.flatMap((s) => faker.helpers.arrayElements(s.types, { min: 1, max: 2 })))];
  const name = variantName(ctx);
  const createdMs = ctx.atMs - randInt(faker, 200, 3000) * DAY_MS;
  const birthYear = randInt(faker, 1948, 1998);
  const adverse = types.some((t) => t.startsWith('adverse-media'));
  const firstToken = ctx.customer.name.split(' ')[0]?.toLowerCase() ?? '';
  const doc = {
    id: randomAlnum(faker, 15, 'upper'),
    last_updated_utc: isoAt(ctx.atMs - randInt(faker, 1, 150) * DAY_MS),
    created_utc: isoAt(createdMs),
    fields: docFields(ctx, sources, birthYear),
    types,
    name,
    entity_type: ctx.entityType,
    aka: Array.from({ length: randInt(faker, 1, 5) }, () => ({ name: akaName(ctx) })),
    associates: Array.from({ length: randInt(faker, 0, 3) }, () => ({ association: pick(faker, ASSOCIATIONS), name: names.fullName(faker) })),
    sources: sources.map((s) => s.key),
    keywords: [],
    media: adverse
      ? Array.from({ length: randInt(faker, 1, 3) }, () => ({
          date: isoAt(createdMs + randInt(faker, 0, 150) * DAY_MS),
          snippet: `${name} — ${pick(faker, MEDIA_SNIPPETS)}.`,
          title: pick(faker, MEDIA_TITLES),
          url: `https://news.example.com/${randInt(faker, 2015, 2025)}/${randomAlnum(faker, 10, 'lower')}`,
        }))
      : [],
    source_notes: sourceNotes(sources, createdMs),
    match_types: faker.helpers.arrayElements(['name_exact', 'name_fuzzy', 'aka_exact', 'year_of_birth', 'removed_personal_title'], { min: 1, max: 3 }),
    match_types_details: [
      {
        aml_types: types,
        matching_name: name,
        name_matches: [{ match_types: [pick(faker, ['exact_match', 'edit_distance', 'phonetic_name'])], query_term: firstToken }],
        secondary_matches: ctx.entityType === 'person' ? [{ match_types: ['exact_birth_year_match'], query_term: String(birthYear) }] : [],
        sources: sources.map((s) => s.key),
      },
    ],
  };
  return { doc, match_status: matchStatus, is_whitelisted: faker.number.float() < 0.05, score: Math.round(faker.number.float({ min: 1.5, max: 38 }) * 100) / 100 };
}

/** The searchEntities item describing a hit's entity in detail. */
export function screeningEntity(faker: Faker, hit: Record<string, unknown>, riskLevel: string): Record<string, unknown> {
  const doc = hit.doc as Record<string, unknown> & { types: string[]; name: string; entity_type: string; created_utc: string; last_updated_utc: string };
  const person = doc.entity_type === 'person';
  // The entity's country is the one its list entries name.
  const fields = doc.fields as { tag?: string; value: string }[];
  const country = fields.find((f) => f.tag === 'country_names')?.value ?? pick(faker, HIGH_RISK_ALPHA3);
  // The list gives the birth year; the detailed record adds month and day.
  const birthYear = Number(fields.find((f) => f.tag === 'date_of_birth')?.value);
  const birth = person && birthYear > 0 ? dateOnly(Date.UTC(birthYear, randInt(faker, 0, 11), randInt(faker, 1, 28))) : null;
  return {
    id: doc.id,
    last_updated_utc: doc.last_updated_utc,
    created_utc: doc.created_utc,
    key_information: {
      name: doc.name,
      entity_type: doc.entity_type,
      types: doc.types,
      grouped_types: [...new Set(doc.types.map((t) => t.split('-').slice(0, 2).join('-')))].map((type) => ({ type })),
      match_types: doc.match_types,
      sources: doc.sources,
      source_notes: doc.source_notes,
      aka: doc.aka,
      date_of_birth: birth,
      dates_of_birth: birth ? [birth] : null,
      match_status: hit.match_status,
      risk_level: riskLevel,
      is_whitelisted: hit.is_whitelisted,
      age: birth ? 2025 - Number(birth.slice(0, 4)) : null,
      death_age: null,
      date_of_death: null,
      primary_country: HIGH_RISK_COUNTRIES[country] ?? null,
      country_names: country,
      designation: person ? pick(faker, POSITIONS) : null,
      associates: doc.associates,
      uncategorized: null,
      keywords: [],
      assets: [],
      related: [],
      fields: doc.fields,
      media: doc.media,
      full_listing: null,
      navigation: { next: null, previous: null },
    },
  };
}
