// Company (KYB) customer records, SPEC 2.2: profile, ownership, the company's claim about itself,
// and the corporate documents backing it.
import type { Faker } from '@faker-js/faker';
import { type Beneficiary, type ClaimBeneficiary, companyOwnership } from './beneficiaries.js';
import { DAY_MS, DEMO_NOW_MS, between, dateOnly, isoAt, pickOffset } from './dates.js';
import { COMPANY_DOC_TYPES, type CustomerDocument, type DocumentContext, companyDocument, proofOfResidence, videoKyc } from './documents.js';
import { type CustomerIdentity, customerIdentity } from './identities.js';
import { type Place, phoneFor, postcodeFor } from './places.js';
import { customerProfile } from './profiles.js';
import { type ProjectContext, pickActor } from './projects.js';
import { Stream, randomUuid, randomAlnum, randInt, pick } from './seeding.js';
import type { DocumentSink } from './stored-files.js';
import * as names from './names.js';

export interface CustomerRecord {
  id: string;
  cmsProjectId: string;
  externalCustomerId: string;
  riskScore: string;
  type: 'Company' | 'Individual';
  onboardingLevel: string;
  status: string;
  createdAt: string;
  updatedAt: string;
  createdBy: string;
  updatedBy: string;
  reason: string;
  externalId: string;
  beneficiaries: { individualBeneficiaries: Beneficiary[] | null; companyBeneficiaries: Beneficiary[] | null } | null;
  companyClaims: Record<string, unknown>[] | null;
  documents: CustomerDocument[] | null;
  [extra: string]: unknown;
}

const LEGAL_FORMS: Record<string, string> = {
  Ltd: 'Private limited company', Limited: 'Private limited company', PLC: 'Public limited company', LLP: 'Limited liability partnership',
  GmbH: 'Gesellschaft mit beschränkter Haftung', AG: 'Aktiengesellschaft', UG: 'Unternehmergesellschaft',
  'Inc.': 'Corporation', 'Corp.': 'Corporation', LLC: 'Limited liability company', 'Pty Ltd': 'Proprietary limited company',
  'S.A.': 'Sociedad anónima / Société anonyme', 'B.V.': 'Besloten vennootschap', 'OÜ': 'Osaühing (private limited company)',
};
const CONTROL_SCHEMES = ['Shareholding', 'Voting rights', 'Board appointment rights', 'Significant influence or control'];
const RISK_NOTES = [
  'Director previously held a position at a company under sanctions review; cleared in 2023.',
  'Operates cash-intensive retail outlets; enhanced monitoring agreed with MLRO.',
  'Group structure includes a holding in a low-tax jurisdiction; structure chart on file.',
];

function legalAddress(faker: Faker, place: Place): string {
  return `${names.buildingNumber(faker)} ${names.streetName(faker)}, ${postcodeFor(faker, place)} ${pick(faker, place.cities)}, ${place.name}`;
}

function registrationNumber(faker: Faker, place: Place): string {
  switch (place.alpha3) {
    case 'GBR':
      return faker.string.numeric({ length: 8, allowLeadingZeros: true });
    case 'DEU':
      return `HRB ${faker.string.numeric(6)}`;
    case 'NLD':
      return faker.string.numeric(8);
    default:
      return `${place.alpha2}${faker.string.numeric(9)}`;
  }
}

function companyClaim(faker: Faker, project: ProjectContext, customer: CustomerIdentity, claimBeneficiaries: ClaimBeneficiary[], createdMs: number, updatedMs: number): Record<string, unknown> {
  const { place } = customer;
  const suffix = customer.name.split(' ').at(-1) ?? '';
  const address = legalAddress(faker, place);
  // A third of companies keep a separate correspondence address.
  const postal = faker.number.float() < 0.33 ? legalAddress(faker, place) : address;
  const actor = pickActor(faker, project);
  return {
    id: randomUuid(faker),
    customerId: customer.id,
    sub: `did:example:${randomAlnum(faker, 42)}`,
    companyName: customer.name,
    registrationNumber: registrationNumber(faker, place),
    legalAddress: address,
    incorporatedOn: dateOnly(createdMs - randInt(faker, 120, 9000) * DAY_MS),
    type: LEGAL_FORMS[suffix] ?? suffix,
    email: customer.email,
    phone: phoneFor(faker, place),
    controlScheme: pick(faker, CONTROL_SCHEMES),
    taxId: `${place.alpha2}${faker.string.numeric(10)}`,
    registrationLocation: `${place.registry}, ${place.cities[0] ?? place.name}`,
    website: `https://www.${customer.email.split('@')[1] ?? 'company.example'}`,
    postalAddress: postal,
    country: place.alpha3,
    createdAt: isoAt(createdMs),
    updatedAt: isoAt(updatedMs),
    createdBy: `customer:${customer.externalCustomerId}`,
    updatedBy: updatedMs === createdMs ? `customer:${customer.externalCustomerId}` : actor,
    addresses: postal === address ? [address] : [address, postal],
    beneficiaries: claimBeneficiaries,
  };
}

/** The company details record of the index-th company of a project. */
export function companyRecord(faker: Faker, project: ProjectContext, index: number, sink: DocumentSink, extraFields: boolean): CustomerRecord {
  const customer = customerIdentity(project, 'company', index);
  faker.seed([project.seed, Stream.company, project.index, index]);
  const profile = customerProfile(faker, 'company');
  const createdMs = customer.createdMs;
  const updatedMs = between(faker, createdMs + DAY_MS, DEMO_NOW_MS - DAY_MS);
  const offset = pickOffset(faker, 0.2);
  const early = profile.onboardingLevel === 'Sign-up';
  const ownership = early ? null : companyOwnership(faker, profile.riskScore === 'High');
  const docCtx: DocumentContext = { faker, project, customer, sink, untilMs: updatedMs };
  let documents: CustomerDocument[] | null = null;
  if (!early) {
    // The certificate comes first; articles or the register follow for a minority.
    const kinds = faker.number.float() < 0.8 ? COMPANY_DOC_TYPES.slice(0, 1) : faker.helpers.arrayElements(COMPANY_DOC_TYPES, 2);
    documents = kinds.map((kind) => companyDocument(docCtx, kind));
    // The registered office proves its address; a representative sometimes does a video call.
    if (faker.number.float() < 0.2) documents.push(proofOfResidence(docCtx));
    if (faker.number.float() < 0.05) documents.push(videoKyc(docCtx));
  }
  const claimUpdatedMs = faker.number.float() < 0.6 ? createdMs : between(faker, createdMs, updatedMs);
  const record: CustomerRecord = {
    id: customer.id,
    cmsProjectId: project.id,
    externalCustomerId: customer.externalCustomerId,
    riskScore: profile.riskScore,
    type: 'Company',
    onboardingLevel: profile.onboardingLevel,
    status: profile.status,
    createdAt: isoAt(createdMs, offset),
    updatedAt: isoAt(updatedMs, offset),
    createdBy: 'system:onboarding',
    updatedBy: pickActor(faker, project),
    reason: profile.reason,
    externalId: `kyb_${randomAlnum(faker, 16, 'lower')}`,
    beneficiaries: ownership && { individualBeneficiaries: ownership.individualBeneficiaries, companyBeneficiaries: ownership.companyBeneficiaries },
    companyClaims: ownership && [companyClaim(faker, project, customer, ownership.claimBeneficiaries, createdMs, claimUpdatedMs)],
    documents,
  };
  // Fields outside the contract, on a small, predictable subset of companies.
  if (extraFields && index % 50 === 7) record.riskNotes = pick(faker, RISK_NOTES);
  return record;
}
