// Verifiable credentials and the alert `results` items that carry them (SPEC 2.4.3). Subjects
// follow the credential fields of SPEC 2.3.1; inline images are a real tiny PNG so consumers
// that decode base64 images get a valid one.
import type { Faker } from '@faker-js/faker';
import { CREDENTIAL_STATUS_TYPES } from '../contract/enums.js';
import { DAY_MS, dateOnly, isoAt, timeOnly } from './dates.js';
import type { CustomerIdentity } from './identities.js';
import { postcodeFor } from './places.js';
import type { ProjectContext } from './projects.js';
import { ALL_RULES, type RuleTemplate, scenarioId, schemaOf, SCENARIOS } from './rules.js';
import { SAMPLE_IMAGE_BASE64 } from './sample-files.js';
import { randomUuid, randomAlnum, randomHex, randInt, pick } from './seeding.js';
import * as names from './names.js';

export type CredentialName = 'IDInformation' | 'IDImage' | 'SelfieImage' | 'ProofOfResidence' | 'IDScanSelfie' | 'AMLScreeningsResults';
type ResultStatus = 'valid' | 'not-valid' | 'error' | 'unknown';

export interface ResultItem {
  data: Record<string, unknown> | null;
  status: ResultStatus | null;
  cmsScenarioId: string | null;
}

const ID_DOCUMENT_TYPES = ['PASSPORT', 'ID_CARD', 'DRIVERS'];
const REJECT_LABELS = ['DOCUMENT_EXPIRED', 'BAD_PROOF_OF_ADDRESS', 'SELFIE_MISMATCH', 'BLURRY_IMAGE'];

interface Review {
  reviewAnswer: string;
  reviewRejectType: string | null;
  reviewRejectLabels: string[];
}

function review(faker: Faker, passed: boolean): Review {
  if (passed) return { reviewAnswer: 'GREEN', reviewRejectType: null, reviewRejectLabels: [] };
  return {
    reviewAnswer: 'RED',
    reviewRejectType: pick(faker, ['RETRY', 'FINAL']),
    reviewRejectLabels: faker.helpers.arrayElements(REJECT_LABELS, { min: 1, max: 2 }),
  };
}

function subject(faker: Faker, name: CredentialName, customer: CustomerIdentity, atMs: number, passed: boolean): Record<string, unknown> {
  const common = { id: `did:example:holder:${randomAlnum(faker, 32)}`, journeyId: `jrn_${randomAlnum(faker, 20, 'lower')}` };
  const entry = { entryDate: dateOnly(atMs), entryTime: timeOnly(atMs), isSandbox: false };
  const birthMs = atMs - randInt(faker, 19, 75) * 365.25 * DAY_MS;
  switch (name) {
    case 'IDInformation':
      return {
        ...common, ...review(faker, passed), documentType: pick(faker, ID_DOCUMENT_TYPES), ...entry,
        personalData: {
          firstName: customer.firstName, middleName: '', lastName: customer.lastName, gender: pick(faker, ['M', 'F']),
          age: Math.floor((atMs - birthMs) / (365.25 * DAY_MS)), citizenship: customer.place.alpha3, country: customer.place.alpha3,
          fullName: `${customer.firstName} ${customer.lastName}`, birthDate: dateOnly(birthMs), countryOfBirth: customer.place.alpha3, stateOfBirth: '',
        },
      };
    case 'IDImage':
      return {
        ...common, base64_front: SAMPLE_IMAGE_BASE64, base64_back: SAMPLE_IMAGE_BASE64, name: 'id-document.png',
        documentType: pick(faker, ID_DOCUMENT_TYPES), ...entry, mediaType_front: 'image/png', mediaType_back: 'image/png',
        ...review(faker, passed),
      };
    case 'SelfieImage':
    case 'IDScanSelfie':
      return { ...common, base64: SAMPLE_IMAGE_BASE64, name: 'selfie.png', mediaType: 'image/png', ...entry, ...review(faker, passed) };
    case 'ProofOfResidence':
      return {
        ...common, country: customer.place.alpha3, base64: SAMPLE_IMAGE_BASE64, name: 'utility-bill.png', documentType: 'Electricity_bill', ...entry,
        mediaType: 'image/png', city: customer.place.cities[0] ?? '', streetName: names.streetName(faker), postalCode: postcodeFor(faker, customer.place),
      };
    case 'AMLScreeningsResults':
      return {
        ...common, ...entry,
        searchId: randInt(faker, 1_000_000, 9_999_999),
        totalHits: passed ? 0 : randInt(faker, 1, 12),
        matchStatus: passed ? 'no_match' : 'potential_match',
        riskLevel: passed ? 'low' : 'high',
      };
  }
}

/** A W3C-style verifiable credential of the given kind about the customer. */
export function credential(faker: Faker, name: CredentialName, customer: CustomerIdentity, atMs: number, passed: boolean): Record<string, unknown> {
  const issuer = 'did:example:issuer:2qKc9Ey6f2Gx1xS6vKQ8u4v3n6xJbL7wWgYQ2zTe';
  return {
    id: `urn:uuid:${randomUuid(faker)}`,
    '@context': ['https://www.w3.org/2018/credentials/v1', `https://schemas.example/contexts/${name}-v1.jsonld`],
    type: ['VerifiableCredential', name],
    expirationDate: isoAt(atMs + 365 * DAY_MS),
    issuanceDate: isoAt(atMs),
    credentialSubject: subject(faker, name, customer, atMs, passed),
    credentialStatus: {
      id: `https://issuer.example/v1/credentials/revocation/status/${randInt(faker, 1, 4_000_000_000)}`,
      type: pick(faker, CREDENTIAL_STATUS_TYPES),
      revocationNonce: randInt(faker, 1, 4_000_000_000),
    },
    issuer,
    credentialSchema: { id: `https://schemas.example/json/${name}-v1.json`, type: 'JsonSchema2023' },
    proof: [{ type: 'BJJSignature2021', issuerData: { id: issuer, state: { value: randomHex(faker, 64) } }, signature: randomHex(faker, 128) }],
  };
}

function scenarioOf(project: ProjectContext, t: RuleTemplate): string | null {
  const s = SCENARIOS.find((sc) => sc.rules.includes(t));
  return s ? scenarioId(project.id, s) : null;
}

/** A result item holding the rule query that fired, in the shape of SPEC 2.3 rule_data. */
export function ruleDataResult(faker: Faker, project: ProjectContext, t: RuleTemplate, status: ResultStatus): ResultItem {
  return {
    data: {
      // `type` is not among the listed ruleData fields of a result, so it is left out here.
      ruleData: {
        queryId: randomUuid(faker),
        id: randomUuid(faker),
        requestId: randInt(faker, 1, 2_000_000_000),
        attribute: { version: 'v1', schema: schemaOf(t.path), path: t.path },
        value: t.value,
        operator: t.operator,
      },
    },
    status,
    cmsScenarioId: scenarioOf(project, t),
  };
}

/** A result item carrying one credential. */
export function credentialResult(faker: Faker, project: ProjectContext, name: CredentialName, customer: CustomerIdentity, atMs: number, passed: boolean): ResultItem {
  const rule = ALL_RULES.find((r) => r.dataType === name);
  return {
    data: { [name]: credential(faker, name, customer, atMs, passed) },
    status: passed ? 'valid' : 'not-valid',
    cmsScenarioId: rule ? scenarioOf(project, rule) : null,
  };
}
