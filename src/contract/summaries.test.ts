import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import type { Alert } from './alert.js';
import { AlertSummary, alertSummaryOf } from './alert-summary.js';
import { Change } from './change.js';
import type { CompanyDetails } from './company.js';
import { CompanySummary, companySummaryOf } from './company-summary.js';
import { fullAlert, fullCompany, minimalAlert, minimalCompany } from './examples.js';
import { addContractFormats } from './formats.js';

// Closed here: a summary holds exactly its listed keys, nothing of the record beyond them.
const ajv = addContractFormats(new Ajv2020({ strict: false, allowUnionTypes: true }));
const closed = (schema: object) => ajv.compile(JSON.parse(JSON.stringify(schema, (k, v: unknown) => (k === '$id' ? undefined : v)).replaceAll('"type":"object"', '"type":"object","additionalProperties":false')));

describe('alert summaries', () => {
  const valid = closed(AlertSummary);

  it('hold every key, an absent optional field as null, and the sizes of the lists', () => {
    const full = alertSummaryOf(fullAlert() as Alert);
    expect(valid(full), JSON.stringify(valid.errors)).toBe(true);
    const alert = fullAlert() as Alert;
    expect(full.counts).toEqual({
      notes: alert.notes!.length,
      audits: alert.audits.length,
      screeningHits: alert.screeningProviderData!.searchResult.hits!.length,
      results: alert.results!.length,
      transactions: alert.transactions!.length,
    });
    const minimal = alertSummaryOf(minimalAlert() as Alert);
    expect(valid(minimal), JSON.stringify(valid.errors)).toBe(true);
    expect(minimal.workflowSessionId).toBeNull();
    expect(minimal.counts).toEqual({ notes: 0, audits: (minimalAlert() as Alert).audits.length, screeningHits: 0, results: 0, transactions: 0 });
  });
});

describe('company summaries', () => {
  const valid = closed(CompanySummary);

  it('take name, registration number and country from the first claim that has each', () => {
    const company = fullCompany() as CompanyDetails;
    const claims = [{ companyName: null, country: 'FRA' }, { companyName: 'ACME Exchange Ltd', registrationNumber: 'HRB 123-45' }, { country: 'DEU' }];
    const summary = companySummaryOf({ ...company, companyClaims: claims as CompanyDetails['companyClaims'] });
    expect(valid(summary), JSON.stringify(valid.errors)).toBe(true);
    expect(summary).toMatchObject({ companyName: 'ACME Exchange Ltd', registrationNumber: 'HRB 123-45', country: 'FRA' });
  });

  it('answer null for what a minimal record lacks', () => {
    const summary = companySummaryOf(minimalCompany() as CompanyDetails);
    expect(valid(summary), JSON.stringify(valid.errors)).toBe(true);
    expect(summary.companyName).toBeNull();
    expect(summary.riskScore).toBeNull();
  });
});

describe('change feed items', () => {
  it('name the kind, the record, the operation and the time', () => {
    const valid = closed(Change);
    expect(valid({ kind: 'execution', id: 'e-1', customerId: 'c-1', operation: 'upsert', etag: 'abc', changedAt: '2026-01-01T00:00:00Z' })).toBe(true);
    expect(valid({ kind: 'alert', id: 'a', customerId: null, operation: 'erase', etag: null, changedAt: '2026-01-01T00:00:00Z' })).toBe(true);
    expect(valid({ kind: 'file', id: 'a', customerId: null, operation: 'upsert', etag: null, changedAt: '2026-01-01T00:00:00Z' })).toBe(false);
  });
});
