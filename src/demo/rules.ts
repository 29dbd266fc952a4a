// The rule and scenario catalogue a project runs. Every rule uses a real attribute path from the
// grammar of SPEC 2.3.1 with an operator and value that make sense for it, and together the rules
// use every RuleObjectType, RuleOperator and RuleDataType value.
import { HIGH_RISK_ALPHA3 } from './places.js';

export type RuleValue = boolean | string | number | (boolean | string | number)[] | null;
export type RuleDocumentKind = 'proof_of_residence' | 'id_image_front' | 'id_image_back' | 'selfie_image';

export interface RuleTemplate {
  slug: string;
  objectType: 'PrivacyPreservingMonitoring' | 'IndividualMonitoring' | 'TransactionMonitoring' | 'TFHE' | 'OffChainZKP' | 'ChallengeQuery';
  dataType: 'IDInformation' | 'IDInformationTfhe' | 'SelfieImage' | 'IDImage' | 'ProofOfResidence' | 'AMLScreeningsResults' | 'ID3' | 'IDScan' | 'IDScanSelfie' | 'IDScanPassport';
  path: string;
  operator: '$noop' | '$eq' | '$lt' | '$lte' | '$gt' | '$gte' | '$in' | '$nin' | '$ne' | '$exists';
  value: RuleValue;
  documents?: readonly RuleDocumentKind[];
}

export interface ScenarioTemplate {
  slug: string;
  name: string;
  rules: readonly RuleTemplate[];
  /** Which customers the scenario runs for. */
  audience: 'all' | 'individual';
  /** Relative frequency among executions: monitoring runs far more often than onboarding. */
  weight: number;
}

const EEA_ALPHA3 = ['AUT', 'BEL', 'DEU', 'DNK', 'ESP', 'EST', 'FIN', 'FRA', 'IRL', 'ITA', 'LTU', 'LUX', 'MLT', 'NLD', 'NOR', 'POL', 'PRT', 'SWE', 'CHE', 'GBR'];
const HIGH_RISK: string[] = [...HIGH_RISK_ALPHA3];
const VC = 'KycSession/vcs';

const rule = (t: RuleTemplate): RuleTemplate => t;

const onboarding = [
  rule({ slug: 'adult-customer', objectType: 'IndividualMonitoring', dataType: 'IDInformation', path: `${VC}/IDInformation/v1/credentialSubject/personalData/age`, operator: '$gte', value: 18 }),
  rule({ slug: 'liveness-match', objectType: 'IndividualMonitoring', dataType: 'IDScanSelfie', path: 'Customer/kycStatus/selfieCheckStatus', operator: '$eq', value: 'approved', documents: ['selfie_image', 'id_image_front'] }),
  rule({ slug: 'residence-in-eea', objectType: 'ChallengeQuery', dataType: 'ProofOfResidence', path: `${VC}/ProofOfResidence/v1/credentialSubject/country`, operator: '$in', value: EEA_ALPHA3, documents: ['proof_of_residence'] }),
  rule({ slug: 'selfie-review', objectType: 'ChallengeQuery', dataType: 'SelfieImage', path: `${VC}/SelfieImage/v1/credentialSubject/reviewAnswer`, operator: '$eq', value: 'GREEN', documents: ['selfie_image'] }),
  rule({ slug: 'no-duplicate-accounts', objectType: 'IndividualMonitoring', dataType: 'IDInformation', path: 'Customer/duplicates/hasDuplicates', operator: '$eq', value: false }),
  rule({ slug: 'document-verification', objectType: 'IndividualMonitoring', dataType: 'ID3', path: 'Customer/kycStatus/allCheckStatus', operator: '$exists', value: true }),
];

const enhancedDueDiligence = [
  rule({ slug: 'passport-required', objectType: 'IndividualMonitoring', dataType: 'IDScanPassport', path: `${VC}/IDImage/v1/credentialSubject/documentType`, operator: '$in', value: ['PASSPORT'], documents: ['id_image_front'] }),
  rule({ slug: 'id-image-check', objectType: 'IndividualMonitoring', dataType: 'IDImage', path: 'Customer/kycStatus/idImageCheckStatus', operator: '$eq', value: 'approved', documents: ['id_image_front', 'id_image_back'] }),
  rule({ slug: 'nationality-not-high-risk', objectType: 'IndividualMonitoring', dataType: 'IDInformation', path: 'Customer/identityData/nationality', operator: '$nin', value: HIGH_RISK }),
  rule({ slug: 'id-data-consistent', objectType: 'IndividualMonitoring', dataType: 'IDScan', path: 'Customer/kycStatus/idInformationCheckStatus', operator: '$ne', value: 'rejected' }),
  rule({ slug: 'proof-of-residence-check', objectType: 'IndividualMonitoring', dataType: 'ProofOfResidence', path: 'Customer/kycStatus/proofOfResidenceCheckStatus', operator: '$eq', value: 'approved', documents: ['proof_of_residence'] }),
];

const amlScreening = [
  rule({ slug: 'no-sanctions-hits', objectType: 'PrivacyPreservingMonitoring', dataType: 'AMLScreeningsResults', path: 'Customer/amlScreening/sanctionsHits', operator: '$eq', value: 0 }),
  rule({ slug: 'no-pep-hits', objectType: 'PrivacyPreservingMonitoring', dataType: 'AMLScreeningsResults', path: 'Customer/amlScreening/pepHits', operator: '$lte', value: 0 }),
  rule({ slug: 'limited-adverse-media', objectType: 'PrivacyPreservingMonitoring', dataType: 'AMLScreeningsResults', path: 'Customer/amlScreening/adverseMediaHits', operator: '$lt', value: 3 }),
  rule({ slug: 'sanctions-status-clear', objectType: 'PrivacyPreservingMonitoring', dataType: 'AMLScreeningsResults', path: 'Customer/amlScreening/sanctionsStatus', operator: '$ne', value: 'true_positive' }),
];

const fraud = [
  rule({ slug: 'no-vpn', objectType: 'IndividualMonitoring', dataType: 'IDInformation', path: 'Customer/fraudAnalytics/ipVpn', operator: '$ne', value: true }),
  rule({ slug: 'ip-score', objectType: 'IndividualMonitoring', dataType: 'IDInformation', path: 'Customer/fraudAnalytics/ipScore', operator: '$lt', value: 75 }),
  rule({ slug: 'email-score', objectType: 'IndividualMonitoring', dataType: 'IDInformation', path: 'Customer/fraudAnalytics/emailScore', operator: '$lte', value: 60 }),
  rule({ slug: 'ip-country-allowed', objectType: 'IndividualMonitoring', dataType: 'IDInformation', path: 'Customer/fraudAnalytics/ipCountry', operator: '$nin', value: HIGH_RISK }),
];

const transactionMonitoring = [
  rule({ slug: 'single-transfer-limit', objectType: 'TransactionMonitoring', dataType: 'AMLScreeningsResults', path: 'Transaction/amount/USD', operator: '$lt', value: 10_000 }),
  rule({ slug: 'velocity-30d', objectType: 'TransactionMonitoring', dataType: 'AMLScreeningsResults', path: 'Transaction/transactionStats/last30D/count', operator: '$lte', value: 50 }),
  rule({ slug: 'volume-7d', objectType: 'TransactionMonitoring', dataType: 'AMLScreeningsResults', path: 'Transaction/transactionStats/last7D/totalAmountUsd', operator: '$lt', value: 50_000 }),
  rule({ slug: 'originator-jurisdiction', objectType: 'TransactionMonitoring', dataType: 'AMLScreeningsResults', path: 'Transaction/originator/countryOfResidence', operator: '$nin', value: HIGH_RISK }),
  rule({ slug: 'beneficiary-risk', objectType: 'TransactionMonitoring', dataType: 'AMLScreeningsResults', path: 'Transaction/beneficiary/riskLevel', operator: '$ne', value: 'high' }),
  rule({ slug: 'wallet-risk', objectType: 'TransactionMonitoring', dataType: 'AMLScreeningsResults', path: 'Customer/walletScreening/riskScore', operator: '$lte', value: 5 }),
  rule({ slug: 'large-ytd-volume', objectType: 'TransactionMonitoring', dataType: 'AMLScreeningsResults', path: 'Transaction/transactionStats/yearToDate/maxAmountUsd', operator: '$lte', value: 250_000 }),
];

const privacyPreserving = [
  rule({ slug: 'encrypted-age-check', objectType: 'TFHE', dataType: 'IDInformationTfhe', path: 'Tfhe/vcs/IDInformationTfhe/v1/credentialSubject/personalData/age', operator: '$gt', value: 17 }),
  rule({ slug: 'zkp-born-before', objectType: 'OffChainZKP', dataType: 'IDInformation', path: `${VC}/IDInformation/v1/credentialSubject/personalData/birthDate`, operator: '$lt', value: 20070101 }),
  rule({ slug: 'zkp-citizenship', objectType: 'OffChainZKP', dataType: 'IDInformation', path: `${VC}/IDInformation/v1/credentialSubject/personalData/citizenship`, operator: '$nin', value: HIGH_RISK }),
  rule({ slug: 'residence-credential-present', objectType: 'ChallengeQuery', dataType: 'ProofOfResidence', path: `${VC}/ProofOfResidence/v1/credentialSubject`, operator: '$noop', value: null }),
];

export const SCENARIOS: readonly ScenarioTemplate[] = [
  { slug: 'kyc-onboarding', name: 'Individual onboarding KYC', rules: onboarding, audience: 'individual', weight: 2 },
  { slug: 'enhanced-due-diligence', name: 'Enhanced due diligence', rules: enhancedDueDiligence, audience: 'individual', weight: 1 },
  { slug: 'aml-screening', name: 'AML screening', rules: amlScreening, audience: 'all', weight: 4 },
  { slug: 'fraud-signals', name: 'Fraud signals', rules: fraud, audience: 'all', weight: 2 },
  { slug: 'transaction-monitoring', name: 'Transaction monitoring', rules: transactionMonitoring, audience: 'all', weight: 8 },
  { slug: 'privacy-preserving-checks', name: 'Privacy-preserving age and citizenship', rules: privacyPreserving, audience: 'individual', weight: 1 },
];

/** Every rule of the catalogue, for tests and for the credential results of alerts. */
export const ALL_RULES: readonly RuleTemplate[] = SCENARIOS.flatMap((s) => s.rules);

/** The catalogue rule with the given slug. */
export function catalogueRule(slug: string): RuleTemplate {
  const found = ALL_RULES.find((r) => r.slug === slug);
  if (!found) throw new Error(`demo rule catalogue has no rule ${slug}`);
  return found;
}

/** The schema of an attribute path is its first segment. */
export function schemaOf(path: string): string {
  return path.slice(0, path.indexOf('/'));
}

/** The CMS id of a scenario within a project. */
export function scenarioId(projectId: string, scenario: ScenarioTemplate): string {
  return `scn_${projectId.replace(/^proj-/, '').replace(/-/g, '_')}_${scenario.slug.replace(/-/g, '_')}`;
}

/** A value that satisfies (pass) or violates (fail) the rule, as the rules engine would have seen it. */
export function observedValue(t: RuleTemplate, pass: boolean, jitter: number): RuleValue {
  const v = t.value;
  const step = 1 + Math.floor(jitter * 9);
  switch (t.operator) {
    case '$noop':
      return null;
    case '$exists':
      return pass;
    case '$eq':
      if (pass) return v;
      return typeof v === 'number' ? v + step : typeof v === 'boolean' ? !v : 'rejected';
    case '$ne':
      if (!pass) return v;
      return typeof v === 'boolean' ? !v : typeof v === 'number' ? v + step : 'approved';
    case '$lt':
    case '$lte':
      return typeof v === 'number' ? (pass ? Math.max(0, v - step) : v + step) : v;
    case '$gt':
    case '$gte':
      return typeof v === 'number' ? (pass ? v + step : v - step) : v;
    case '$in':
      // A failing value outside the list: a non-EEA country, or a document type that is not a passport.
      return Array.isArray(v) ? (pass ? (v[Math.floor(jitter * v.length)] ?? null) : v.includes('DEU') ? 'USA' : 'ID_CARD') : v;
    case '$nin':
      return Array.isArray(v) ? (pass ? 'DEU' : (v[Math.floor(jitter * v.length)] ?? null)) : v;
  }
}
