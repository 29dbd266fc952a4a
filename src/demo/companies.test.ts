import { beforeAll, describe, expect, it } from 'vitest';
import {
  COMPANY_DOC_TYPES,
  COUNTRY_ALPHA3_CODES,
  METADATA_MEDIA_TYPES,
  PROOF_OF_RESIDENCE_DOC_TYPES,
  PROOF_OF_RESIDENCE_MEDIA_TYPES,
  isUuid,
} from '../contract/index.js';
import { generateDemo } from './index.js';

interface Beneficiary {
  beneficiaryType: string;
  ownershipPercentage: number;
  customerType: string;
}
interface Document {
  documentType: string;
  customerId: string;
  metadata: Record<string, unknown>;
  document: { objectKey: string; cmsProjectId: string; mimetype: string; filename: string };
}
interface Customer {
  id: string;
  type: string;
  cmsProjectId: string;
  onboardingLevel: string;
  beneficiaries: { individualBeneficiaries: Beneficiary[] | null; companyBeneficiaries: Beneficiary[] | null } | null;
  companyClaims: { customerId: string; country: string; beneficiaries: { shareSize: number; type: string }[] }[] | null;
  documents: Document[] | null;
}

// Percentages are two-decimal numbers; their float sum may exceed 100 by rounding noise only.
const EPSILON = 1e-9;
const sum = (values: number[]): number => values.reduce((a, b) => a + b, 0);

describe('demo customers', () => {
  let customers: Customer[];
  let companies: Customer[];

  beforeAll(() => {
    customers = [];
    for (const line of generateDemo({ companies: 300, individuals: 100, alerts: 0, executionsPerCustomer: 0, heavyCustomerExecutions: 0 })) {
      customers.push((JSON.parse(line) as { record: Customer }).record);
    }
    companies = customers.filter((c) => c.type === 'Company');
  });

  it('give companies owners whose stakes add up to at most 100 %', () => {
    let withOwners = 0;
    for (const c of companies) {
      if (!c.beneficiaries) continue;
      withOwners += 1;
      const all = [...(c.beneficiaries.individualBeneficiaries ?? []), ...(c.beneficiaries.companyBeneficiaries ?? [])];
      expect(sum(all.map((b) => b.ownershipPercentage))).toBeLessThanOrEqual(100 + EPSILON);
      for (const b of all) expect(b.ownershipPercentage).toBeGreaterThanOrEqual(0);
    }
    expect(withOwners).toBeGreaterThan(companies.length * 0.8);
  });

  it('call a beneficiary a UBO only at 25 % or more, and only a person', () => {
    let ubos = 0;
    for (const c of companies) {
      for (const b of c.beneficiaries?.individualBeneficiaries ?? []) {
        if (b.beneficiaryType === 'ubo') {
          ubos += 1;
          expect(b.ownershipPercentage).toBeGreaterThanOrEqual(25);
        }
        if (b.beneficiaryType === 'representative') expect(b.ownershipPercentage).toBe(0);
      }
      for (const b of c.beneficiaries?.companyBeneficiaries ?? []) expect(b.beneficiaryType).not.toBe('ubo');
    }
    expect(ubos).toBeGreaterThan(companies.length / 2);
  });

  it('give company claims a country code and beneficiaries whose shares add up to at most 100', () => {
    for (const c of companies) {
      for (const claim of c.companyClaims ?? []) {
        expect(claim.customerId).toBe(c.id);
        expect(COUNTRY_ALPHA3_CODES).toContain(claim.country);
        expect(sum(claim.beneficiaries.map((b) => b.shareSize))).toBeLessThanOrEqual(100 + EPSILON);
      }
    }
  });

  it('give every document metadata that fits its kind and a stored file in the same project', () => {
    const kinds = new Set<string>();
    for (const c of customers) {
      for (const d of c.documents ?? []) {
        kinds.add(d.documentType);
        expect(d.customerId).toBe(c.id);
        expect(d.document.cmsProjectId).toBe(c.cmsProjectId);
        expect(isUuid(d.document.objectKey)).toBe(true);
        expect(METADATA_MEDIA_TYPES).toContain(d.metadata.mediaType);
        expect(d.metadata.name).toBe(d.document.filename);
        if (d.documentType === 'proof_of_residence') {
          expect(PROOF_OF_RESIDENCE_DOC_TYPES).toContain(d.metadata.documentType);
          expect(PROOF_OF_RESIDENCE_MEDIA_TYPES).toContain(d.metadata.mediaType);
          for (const field of ['country', 'city', 'streetName', 'postalCode']) expect(typeof d.metadata[field]).toBe('string');
        }
        if (d.documentType === 'company_document') expect(COMPANY_DOC_TYPES).toContain(d.metadata.documentType);
        if (d.documentType === 'video_kyc') expect(String(d.metadata.mediaType)).toMatch(/^video\//);
        expect(typeof d.metadata.isSandbox).toBe('boolean');
      }
    }
    expect(kinds).toEqual(new Set(['proof_of_residence', 'company_document', 'video_kyc']));
  });

  it('give individuals documents but no ownership or company claims', () => {
    const individuals = customers.filter((c) => c.type === 'Individual');
    expect(individuals.length).toBe(200);
    for (const c of individuals) {
      expect(c.beneficiaries).toBeNull();
      expect(c.companyClaims).toBeNull();
      if (c.onboardingLevel !== 'Sign-up') expect(c.documents?.some((d) => d.documentType === 'proof_of_residence')).toBe(true);
    }
  });

  it('keep company records around 3-4 KB', () => {
    const sizes = companies.map((c) => JSON.stringify(c).length).sort((a, b) => a - b);
    const median = sizes[sizes.length >> 1]!;
    expect(median).toBeGreaterThan(2000);
    expect(median).toBeLessThan(5000);
  });
});
