/** Company records for the company list tests: the fields the summary, the filters and the search read. */
import { companySummaryOf, type CompanySummary } from '../../src/contract/company-summary.js';
import type { CompanyDetails } from '../../src/contract/company.js';

/** What a test company varies; the rest is fixed. */
export interface CompanySpec {
  id: string;
  project: string;
  name?: string;
  registrationNumber?: string;
  country?: string;
  status?: string;
  onboardingLevel?: string;
  riskScore?: string;
  updatedAt?: string;
  externalId?: string;
  externalCustomerId?: string;
}

/** The company record of a spec. */
export function companyRecord(s: CompanySpec): CompanyDetails {
  const claim: Record<string, unknown> = {};
  if (s.name !== undefined) claim.companyName = s.name;
  if (s.registrationNumber !== undefined) claim.registrationNumber = s.registrationNumber;
  if (s.country !== undefined) claim.country = s.country;
  const record: Record<string, unknown> = {
    id: s.id,
    cmsProjectId: s.project,
    type: 'Company',
    createdAt: '2024-01-01T00:00:00Z',
    companyClaims: Object.keys(claim).length === 0 ? [] : [claim],
  };
  if (s.status !== undefined) record.status = s.status;
  if (s.onboardingLevel !== undefined) record.onboardingLevel = s.onboardingLevel;
  if (s.riskScore !== undefined) record.riskScore = s.riskScore;
  if (s.updatedAt !== undefined) record.updatedAt = s.updatedAt;
  if (s.externalId !== undefined) record.externalId = s.externalId;
  if (s.externalCustomerId !== undefined) record.externalCustomerId = s.externalCustomerId;
  return record as CompanyDetails;
}

/** The NDJSON import line of a spec. */
export function companySpecLine(s: CompanySpec): string {
  return JSON.stringify({ kind: 'customer', record: companyRecord(s) });
}

/** The summary the list must answer for a spec. */
export function summaryOfSpec(s: CompanySpec): CompanySummary {
  return companySummaryOf(companyRecord(s));
}

/** A uuid numbered `n` (distinct per n, sorting by n). */
export function numberedId(n: number, prefix = '0000'): string {
  return `${prefix}${String(n).padStart(4, '0')}-0000-4000-8000-000000000000`;
}
