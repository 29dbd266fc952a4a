/**
 * Which fields of a record hold personal data, document addresses or screening provider data,
 * each named by its path from the record root. A key without the class's scope is served the
 * record with those values replaced by their mask (docs/data-protection.md prints this list).
 *
 * Paths: member names joined by `.`, `[]` after a name for every item of that array, `*` for
 * every member of an object that no other path at that level names (an object that is personal
 * as a whole: its unknown extra members are personal too). A path marked `keep` names a member
 * that a `*` beside it must not cover.
 */
import { AlertSummary } from './alert-summary.js';

/** The classes of withheld fields, each with the scope that lets a key see it. */
export const FIELD_CLASSES = {
  pii: { scope: 'pii:read', bit: 1, title: 'personal data of customers and the people about them' },
  documents: { scope: 'documents:read', bit: 2, title: 'document addresses and files' },
  screening: { scope: 'screening:read', bit: 4, title: 'screening provider data' },
} as const;

export type FieldClass = keyof typeof FIELD_CLASSES;

/** Every class bit: a view that withholds everything. */
export const ALL_CLASS_BITS = 7;

/**
 * What a withheld value becomes, chosen so the answer stays valid under the contract: `null`
 * where the field may be null, else a fixed value of the field's type and format.
 */
export const MASKS = {
  null: 'null',
  text: '"[redacted]"',
  email: '"redacted@redacted.invalid"',
  emptyArray: '[]',
  zero: '0',
} as const;

export type Mask = keyof typeof MASKS;

/** The masks by their stored number (a layout records each range's mask by index). */
export const MASK_ORDER: readonly Mask[] = ['null', 'text', 'email', 'emptyArray', 'zero'];

export interface ClassifiedField {
  path: string;
  class: FieldClass | 'keep';
  mask: Mask;
}

const pii = (path: string, mask: Mask = 'null'): ClassifiedField => ({ path, class: 'pii', mask });
const keep = (path: string): ClassifiedField => ({ path, class: 'keep', mask: 'null' });

/** A beneficiary is about a person: everything but its listed non-personal members is personal. */
function beneficiary(prefix: string): ClassifiedField[] {
  const kept = ['id', 'beneficiaryType', 'beneficiaryPositions', 'ownershipPercentage', 'inRegistry', 'status', 'customerType'];
  return [pii(`${prefix}.*`), ...kept.map((m) => keep(`${prefix}.${m}`))];
}

export const COMPANY_FIELDS: readonly ClassifiedField[] = [
  ...beneficiary('beneficiaries.individualBeneficiaries[]'),
  ...beneficiary('beneficiaries.companyBeneficiaries[]'),
  pii('companyClaims[].legalAddress'),
  pii('companyClaims[].postalAddress'),
  pii('companyClaims[].addresses'),
  pii('companyClaims[].email'),
  pii('companyClaims[].phone'),
  // A document's metadata describes the person it was issued to: all but its kind and origin.
  pii('documents[].metadata.*'),
  ...['journeyId', 'country', 'documentType', 'mediaType', 'isSandbox'].map((m) => keep(`documents[].metadata.${m}`)),
  pii('documents[].document.filename'),
  pii('documents[].document.description'),
  { path: 'documents[].document.presignedUrl', class: 'documents', mask: 'null' },
];

/** The personal and document fields of an alert's notes, below `prefix` (the alert, or an audit snapshot). */
function notes(prefix: string): ClassifiedField[] {
  return [
    pii(`${prefix}notes[].name`, 'text'),
    pii(`${prefix}notes[].description`),
    pii(`${prefix}notes[].data`),
    pii(`${prefix}notes[].documents[].filename`, 'text'),
    pii(`${prefix}notes[].documents[].description`),
    { path: `${prefix}notes[].documents[].presignedUrl`, class: 'documents', mask: 'text' },
  ];
}

/** The personal fields inside screening provider data (for keys that may see screening data but not personal data). */
function screening(prefix: string): ClassifiedField[] {
  const s = `${prefix}screeningProviderData`;
  const user = (who: string) => [pii(`${s}.searchResult.${who}.name`, 'text'), pii(`${s}.searchResult.${who}.email`, 'email'), pii(`${s}.searchResult.${who}.phone`, 'text')];
  const doc = `${s}.searchResult.hits[].doc`;
  const info = `${s}.searchEntities[].key_information`;
  return [
    { path: s, class: 'screening', mask: 'null' },
    pii(`${s}.searchRef`),
    pii(`${s}.requestData.search_term`, 'text'),
    pii(`${s}.requestData.tags`),
    // The birth year searched is the screened person's, as a secondary match's is.
    pii(`${s}.requestData.filters.birth_year`),
    pii(`${s}.searchResult.filters.birth_year`),
    pii(`${s}.searchResult.search_term`, 'text'),
    pii(`${s}.searchResult.submitted_term`, 'text'),
    pii(`${s}.searchResult.tags`, 'emptyArray'),
    ...user('searcher'),
    ...user('assignee'),
    pii(`${doc}.name`, 'text'),
    pii(`${doc}.aka`, 'emptyArray'),
    pii(`${doc}.associates`, 'emptyArray'),
    pii(`${doc}.fields`, 'emptyArray'),
    pii(`${doc}.media`, 'emptyArray'),
    pii(`${doc}.source_notes`),
    pii(`${doc}.keywords`, 'emptyArray'),
    pii(`${doc}.match_types_details[].matching_name`, 'text'),
    pii(`${doc}.match_types_details[].name_matches[].query_term`, 'text'),
    // A secondary match names what else of the person was searched (a birth year): all but its kind.
    pii(`${doc}.match_types_details[].secondary_matches[].*`),
    keep(`${doc}.match_types_details[].secondary_matches[].match_types`),
    pii(`${info}.name`, 'text'),
    ...['aka', 'date_of_birth', 'dates_of_birth', 'associates', 'media', 'fields', 'full_listing', 'uncategorized', 'related', 'assets', 'designation', 'source_notes', 'date_of_death', 'death_age', 'age', 'primary_country', 'country_names', 'keywords'].map((m) => pii(`${info}.${m}`)),
  ];
}

function duplicates(prefix: string): ClassifiedField[] {
  return ['original', 'duplicate'].flatMap((side) => [
    pii(`${prefix}duplicateData.${side}.customerInfo`),
    { path: `${prefix}duplicateData.${side}.profilePicture`, class: 'documents', mask: 'null' } as const,
    { path: `${prefix}duplicateData.${side}.idDocumentUrl`, class: 'documents', mask: 'null' } as const,
  ]);
}

/** The credentials an alert's results carry (SPEC 2.4.3), each issued about the customer. */
const RESULT_CREDENTIALS = ['AMLScreeningsResults', 'ProofOfResidence', 'IDScanSelfie', 'IDImage', 'IDInformation', 'SelfieImage'];

/**
 * A credential's subject is the customer: its personal data, names, addresses and images, and any
 * member an issuer adds. Shown: what the check was and how it ended, as on a document's metadata.
 */
function results(prefix: string): ClassifiedField[] {
  const shown = ['journeyId', 'country', 'documentType', 'mediaType', 'mediaType_front', 'mediaType_back', 'isSandbox', 'entryDate', 'entryTime', 'reviewAnswer', 'reviewRejectType', 'reviewRejectLabels'];
  return [
    ...RESULT_CREDENTIALS.flatMap((c) => {
      const subject = `${prefix}results[].data.${c}.credentialSubject`;
      return [pii(`${subject}.*`), ...shown.map((m) => keep(`${subject}.${m}`))];
    }),
    // The rules engine's input is the customer's own attributes (identity, contact, residence).
    pii(`${prefix}results[].data.RulesEngineInputData`),
  ];
}

/** The alert's own free text: the source writes people into it (the person matched in a title, what was found in a closing reason). */
function texts(prefix: string): ClassifiedField[] {
  return [pii(`${prefix}name`, 'text'), pii(`${prefix}description`), pii(`${prefix}reason`)];
}

/** A transaction's counterparty, and the on-chain transaction itself: its hash (and the explorer link naming it) leads to the customer's wallet. */
function transactions(prefix: string): ClassifiedField[] {
  const info = `${prefix}transactions[].transactionInfo`;
  return [pii(`${info}.counterparty`), pii(`${info}.hash`), pii(`${info}.hashUrl`)];
}

/** An alert's fields, and the same fields in the snapshots of its audit trail (open objects that may carry any of them). */
function alertFields(prefix: string): ClassifiedField[] {
  return [...texts(prefix), ...notes(prefix), ...screening(prefix), ...duplicates(prefix), ...results(prefix), ...transactions(prefix)];
}

export const ALERT_FIELDS: readonly ClassifiedField[] = [...alertFields(''), ...alertFields('audits[].record.')];

/**
 * An alert summary's fields (GET /alerts): the alert's own top-level fields it repeats, each in the
 * alert's class and mask, and the count of its screening hits, which tells of the screening data
 * withheld whole.
 */
export const ALERT_SUMMARY_FIELDS: readonly ClassifiedField[] = [
  ...ALERT_FIELDS.filter((f) => !/[.[*]/.test(f.path) && Object.hasOwn(AlertSummary.properties, f.path)),
  { path: 'counts.screeningHits', class: 'screening', mask: 'zero' },
];

/**
 * The revision of each kind's field list, raised whenever one of its paths or masks changes. A
 * record's stored ranges carry the revision they were found with; ranges of another revision are
 * found again when a redacted answer is made, and a view's ETag names the revision.
 */
export const FIELD_REVISIONS = { company: 1, alert: 3, alertSummary: 2, execution: 1 } as const;

export const EXECUTION_FIELDS: readonly ClassifiedField[] = [
  { path: 'scenario_executions[].rules[].documents[].url', class: 'documents', mask: 'text' },
];

/** Each path's steps: member names, `[]` for every item, `*` for every other member. */
export function pathSteps(path: string): string[] {
  const steps: string[] = [];
  for (const part of path.split('.')) {
    if (part.endsWith('[]')) steps.push(part.slice(0, -2), '[]');
    else steps.push(part);
  }
  return steps;
}
