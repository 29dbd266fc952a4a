/**
 * The grammar of rule attribute paths (SPEC 2.3.1). It is finite, so it is enumerated once
 * into a set: checking is one hash lookup, and the set doubles as documentation.
 * Roots are the AttributeSchema values: Customer, KycSession, Transaction, Tfhe.
 */

/** A tree of path segments; a leaf is an empty object. */
type Tree = { [segment: string]: Tree };

const leaves = (...names: string[]): Tree => Object.fromEntries(names.map((n) => [n, {}]));

const PERSONAL_DATA = leaves(
  'firstName', 'middleName', 'lastName', 'gender', 'age', 'citizenship', 'country', 'fullName', 'birthDate',
  'countryOfBirth', 'stateOfBirth',
);

const ID_INFORMATION_SUBJECT: Tree = {
  ...leaves(
    'id', 'journeyId', 'reviewAnswer', 'reviewRejectType', 'reviewRejectLabels', 'documentType', 'entryDate',
    'entryTime', 'isSandbox',
  ),
  personalData: PERSONAL_DATA,
};

const CREDENTIAL_SUBJECTS: Record<string, Tree> = {
  IDInformation: ID_INFORMATION_SUBJECT,
  IDInformationTfhe: ID_INFORMATION_SUBJECT,
  IDImage: leaves(
    'id', 'journeyId', 'base64_front', 'base64_back', 'name', 'documentType', 'entryDate', 'entryTime',
    'mediaType_front', 'mediaType_back', 'reviewAnswer', 'reviewRejectType', 'reviewRejectLabels', 'isSandbox',
  ),
  SelfieImage: leaves(
    'id', 'journeyId', 'base64', 'name', 'mediaType', 'entryDate', 'entryTime', 'reviewAnswer', 'reviewRejectType',
    'reviewRejectLabels', 'isSandbox',
  ),
  ProofOfResidence: leaves(
    'id', 'journeyId', 'country', 'base64', 'name', 'documentType', 'entryDate', 'entryTime', 'mediaType', 'county',
    'city', 'streetName', 'postalCode', 'isSandbox',
  ),
};

/** The `<Credential>/v1` subtree: the common credential fields plus its subject fields. */
function credential(name: string): Tree {
  return {
    v1: {
      ...leaves('id', '@context', 'type', 'expirationDate', 'issuanceDate', 'issuer', 'proof'),
      credentialSubject: CREDENTIAL_SUBJECTS[name] ?? {},
      credentialStatus: leaves('id', 'type', 'revocationNonce'),
      credentialSchema: leaves('id', 'type'),
    },
  };
}

const COUNTERPARTY = leaves('countryOfResidence', 'nationality', 'riskScore', 'riskLevel', 'type', 'address');
const STATS = leaves('count', 'totalAmountUsd', 'maxAmountUsd');
const WINDOWS = ['last1D', 'last7D', 'last14D', 'last30D', 'yearToDate', 'monthToDate'];

const GRAMMAR: Tree = {
  Customer: {
    identityData: leaves('age', 'nationality', 'residence', 'email', 'phone'),
    kycStatus: leaves(
      'allCheckStatus', 'selfieCheckStatus', 'idImageCheckStatus', 'idInformationCheckStatus',
      'proofOfResidenceCheckStatus',
    ),
    amlScreening: leaves(
      'amlHits', 'pepHits', 'sanctionsHits', 'adverseMediaHits', 'pepAttribute', 'sanctionsStatus',
      'adverseMediaStatus',
    ),
    duplicates: leaves('duplicateHits', 'hasDuplicates'),
    walletScreening: leaves('riskScore'),
    fraudAnalytics: leaves('ipCountry', 'ipVpn', 'ipScore', 'emailScore', 'phoneScore'),
  },
  KycSession: {
    vcs: Object.fromEntries(
      ['IDInformation', 'IDImage', 'SelfieImage', 'ProofOfResidence'].map((c) => [c, credential(c)]),
    ),
  },
  Tfhe: { vcs: { IDInformationTfhe: credential('IDInformationTfhe') } },
  Transaction: {
    amount: leaves('USD', 'EUR', 'GBP'),
    event: leaves('transactionDate', 'amount', 'riskScore', 'riskLevel', 'type', 'assets'),
    originator: COUNTERPARTY,
    beneficiary: COUNTERPARTY,
    transactionStats: Object.fromEntries(WINDOWS.map((w) => [w, STATS])),
  },
};

function collect(tree: Tree, prefix: string, into: Set<string>): Set<string> {
  for (const [segment, child] of Object.entries(tree)) {
    const path = prefix === '' ? segment : `${prefix}/${segment}`;
    into.add(path);
    collect(child, path, into);
  }
  return into;
}

/** Every allowed attribute.path: each full path and every intermediate node on its own. */
export const ATTRIBUTE_PATHS: ReadonlySet<string> = collect(GRAMMAR, '', new Set());

/** True when `value` is an allowed attribute.path (SPEC 2.3.1). */
export function isAttributePath(value: string): boolean {
  return ATTRIBUTE_PATHS.has(value);
}
