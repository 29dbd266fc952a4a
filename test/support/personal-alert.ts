/**
 * An alert whose own texts, screening search and on-chain transaction name a person (the fields
 * classified in the alert field list's third revision), in the alert and in an audit snapshot;
 * and that list as it stood before, to lay out a record the way an earlier import did.
 */
import { ALERT_FIELDS, type ClassifiedField } from '../../src/contract/field-classes.js';
import { fullAlert } from '../../src/contract/examples.js';

/** The personal values the alert carries, each where a key without `pii:read` must not find it. */
export const PERSONAL = {
  name: 'Potential sanctions/PEP match: Alda Grimes',
  description: 'Alda Grimes matched a PEP list entry on name and birth year',
  reason: 'True positive: Alda Grimes confirmed as the listed person',
  birthYear: 1961,
  keyword: 'Grimes family holdings',
  primaryCountry: 'Syrian Arab Republic',
  countryNames: 'Syria, Lebanon',
  hash: '0x7f3a9c2e41b8d5f06a1e3c9b7d2f4a6e8c0b1d3f5a7e9c2b4d6f8a0c1e3b5d7f',
  hashUrl: 'https://etherscan.io/tx/0x7f3a9c2e41b8d5f06a1e3c9b7d2f4a6e8c0b1d3f5a7e9c2b4d6f8a0c1e3b5d7f',
} as const;

/** The strings of PERSONAL, as they would appear in an answer's JSON. */
export const PERSONAL_TEXTS: readonly string[] = Object.values(PERSONAL).map(String);

/** The paths the third revision of the alert field list added (the alert's texts, the screened person's year, countries and keywords, transaction hashes). */
const ADDED_IN_REVISION_3 = ['name', 'description', 'reason', 'screeningProviderData.requestData.filters.birth_year', 'screeningProviderData.searchResult.filters.birth_year', 'screeningProviderData.searchResult.hits[].doc.keywords']
  .concat(['primary_country', 'country_names', 'keywords'].map((m) => `screeningProviderData.searchEntities[].key_information.${m}`))
  .concat(['hash', 'hashUrl'].map((m) => `transactions[].transactionInfo.${m}`));

/** The alert field list of revision 2: the current one without what revision 3 added, in the alert and its snapshots. */
export const ALERT_FIELDS_REVISION_2: readonly ClassifiedField[] = ALERT_FIELDS.filter((f) => !ADDED_IN_REVISION_3.includes(f.path.replace(/^audits\[\]\.record\./, '')));

/** The screening data and transactions of the contract's full alert, with PERSONAL in the places revision 3 classified. */
function personalParts(): { screeningProviderData: Record<string, unknown>; transactions: Record<string, unknown>[] } {
  const full = fullAlert() as { screeningProviderData: ScreeningParts; transactions: { transactionInfo: Record<string, unknown> }[] };
  const s = full.screeningProviderData;
  s.requestData.filters.birth_year = PERSONAL.birthYear;
  s.searchResult.filters.birth_year = PERSONAL.birthYear;
  s.searchResult.hits[0]!.doc.keywords = [PERSONAL.keyword];
  Object.assign(s.searchEntities[0]!.key_information, { primary_country: PERSONAL.primaryCountry, country_names: PERSONAL.countryNames, keywords: [PERSONAL.keyword] });
  Object.assign(full.transactions[0]!.transactionInfo, { hash: PERSONAL.hash, hashUrl: PERSONAL.hashUrl });
  return { screeningProviderData: s as unknown as Record<string, unknown>, transactions: full.transactions };
}

interface ScreeningParts {
  requestData: { filters: Record<string, unknown> };
  searchResult: { filters: Record<string, unknown>; hits: { doc: Record<string, unknown> }[] };
  searchEntities: { key_information: Record<string, unknown> }[];
}

/** The contract's full alert with PERSONAL in it, and an audit snapshot carrying the same. */
export function personalAlert(project: string, id: string): Record<string, unknown> {
  const texts = { name: PERSONAL.name, description: PERSONAL.description, reason: PERSONAL.reason };
  const base = fullAlert();
  const snapshot = { ...texts, status: 'Closed', ...personalParts() };
  const audits = [...(base.audits as unknown[]), { timestamp: '2024-03-02T12:00:00Z', action: 'update', author: 'ops', record: snapshot }];
  return { ...base, id, cmsProjectId: project, ...texts, ...personalParts(), audits };
}
