/**
 * A company's summary, as the company list and search answer it: who the company is and where it
 * stands, without its owners, claims and documents. Name, registration number and country come from
 * the first of its claims that has each.
 */
import { Type, type Static } from '@sinclair/typebox';
import type { CompanyClaim, CompanyDetails } from './company.js';
import { CountryAlpha3, CustomerStatus, OnboardingLevel, RiskScore } from './enums.js';
import { DateTime, Nullable, Uuid } from './schema-helpers.js';

const Str = Type.String();

export const CompanySummary = Type.Object(
  {
    id: Uuid(),
    externalCustomerId: Nullable(Str),
    externalId: Nullable(Str),
    status: Nullable(CustomerStatus),
    onboardingLevel: Nullable(OnboardingLevel),
    riskScore: Nullable(RiskScore),
    companyName: Nullable(Str),
    registrationNumber: Nullable(Str),
    country: Nullable(CountryAlpha3),
    createdAt: Nullable(DateTime()),
    updatedAt: Nullable(DateTime()),
  },
  { $id: 'CompanySummary', title: 'CompanySummary', description: "a company's identity and standing (GET /companies)" },
);
export type CompanySummary = Static<typeof CompanySummary>;

/** The first non-null value of a claim field, in the order the record lists its claims. */
function fromClaims<K extends 'companyName' | 'registrationNumber' | 'country'>(claims: readonly CompanyClaim[] | null | undefined, field: K): string | null {
  for (const claim of claims ?? []) {
    const value = claim[field];
    if (typeof value === 'string') return value;
  }
  return null;
}

/** The summary of a valid company record; every key present, an absent field as null. */
export function companySummaryOf(company: CompanyDetails): CompanySummary {
  return {
    id: company.id,
    externalCustomerId: company.externalCustomerId ?? null,
    externalId: company.externalId ?? null,
    status: company.status ?? null,
    onboardingLevel: company.onboardingLevel ?? null,
    riskScore: company.riskScore ?? null,
    companyName: fromClaims(company.companyClaims, 'companyName'),
    registrationNumber: fromClaims(company.companyClaims, 'registrationNumber'),
    country: fromClaims(company.companyClaims, 'country'),
    createdAt: company.createdAt ?? null,
    updatedAt: company.updatedAt ?? null,
  };
}
