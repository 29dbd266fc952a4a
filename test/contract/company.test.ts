import { describe, expect, it } from 'vitest';
import { fullCompany, minimalCompany } from '../../src/contract/examples.js';
import { deleteAt, getAt, setAt } from '../support/json-pointer.js';
import { validateRecord } from '../../src/contract/validators.js';

const ok = { ok: true, warnings: [] };
const check = (record: unknown) => validateRecord('customer', record);

/** Pointers of every field of the object at `pointer` in the full example. */
function fieldsAt(pointer: string): string[] {
  return Object.keys(getAt(fullCompany(), pointer) as object).map((k) => `${pointer}/${k}`);
}

describe('company details record (SPEC 2.2)', () => {
  it('accepts a record with only id and cmsProjectId', () => {
    expect(check(minimalCompany())).toEqual(ok);
  });

  it('accepts a record with every listed field', () => {
    expect(check(fullCompany())).toEqual(ok);
  });

  it.each(['/id', '/cmsProjectId'])('requires %s, which the service stores records by', (pointer) => {
    expect(check(deleteAt(fullCompany(), pointer))).toEqual({ ok: false, issues: [{ path: pointer, message: 'is required' }] });
    expect(check(setAt(fullCompany(), pointer, null))).toEqual({
      ok: false,
      issues: [{ path: pointer, message: 'must be a string' }],
    });
  });

  it('rejects a company id that is not a uuid', () => {
    expect(check(setAt(minimalCompany(), '/id', 'company-1'))).toEqual({
      ok: false,
      issues: [{ path: '/id', message: 'must be a uuid' }],
    });
  });

  it('accepts null or absence for every other top-level field ("not shown")', () => {
    for (const pointer of fieldsAt('').filter((p) => p !== '/id' && p !== '/cmsProjectId')) {
      expect(check(setAt(fullCompany(), pointer, null)), pointer).toEqual(ok);
      expect(check(deleteAt(fullCompany(), pointer)), pointer).toEqual(ok);
    }
  });

  it.each([
    '/beneficiaries/individualBeneficiaries/0',
    '/companyClaims/0',
    '/companyClaims/0/beneficiaries/0',
    '/documents/0',
    '/documents/0/metadata',
    '/documents/0/document',
  ])('accepts null or absence for the fields of %s', (parent) => {
    const exempt = ['/documents/0/metadata', '/documents/0/document'];
    for (const pointer of fieldsAt(parent).filter((p) => !exempt.includes(p))) {
      expect(check(setAt(fullCompany(), pointer, null)), pointer).toEqual(ok);
      expect(check(deleteAt(fullCompany(), pointer)), pointer).toEqual(ok);
    }
  });

  it('accepts null beneficiaries, beneficiary lists and positions', () => {
    expect(check(setAt(fullCompany(), '/beneficiaries/companyBeneficiaries', null))).toEqual(ok);
    expect(check(setAt(fullCompany(), '/beneficiaries/individualBeneficiaries', null))).toEqual(ok);
    expect(check(setAt(fullCompany(), '/beneficiaries/individualBeneficiaries/0/beneficiaryPositions', null))).toEqual(ok);
  });

  it.each(['/documents/0/metadata', '/documents/0/document'])('requires %s in a document, and not null', (pointer) => {
    expect(check(deleteAt(fullCompany(), pointer))).toEqual({ ok: false, issues: [{ path: pointer, message: 'is required' }] });
    expect(check(setAt(fullCompany(), pointer, null))).toEqual({
      ok: false,
      issues: [{ path: pointer, message: 'must be an object' }],
    });
  });

  it('accepts an empty metadata object (which fields belong to which kind is not shown)', () => {
    expect(check(setAt(fullCompany(), '/documents/0/metadata', {}))).toEqual(ok);
  });

  it('rejects values of the wrong type, saying null is also allowed', () => {
    expect(check(setAt(fullCompany(), '/beneficiaries/individualBeneficiaries/0/ownershipPercentage', '51'))).toEqual({
      ok: false,
      issues: [{ path: '/beneficiaries/individualBeneficiaries/0/ownershipPercentage', message: 'must be a number or null' }],
    });
    expect(check(setAt(fullCompany(), '/companyClaims', {}))).toEqual({
      ok: false,
      issues: [{ path: '/companyClaims', message: 'must be an array or null' }],
    });
  });

  it('rejects a number past the range of a 64-bit float, saying so', () => {
    // JSON.parse reads such a literal (1e400) as Infinity, which no double holds.
    expect(check(setAt(fullCompany(), '/beneficiaries/individualBeneficiaries/0/ownershipPercentage', Infinity))).toEqual({
      ok: false,
      issues: [{ path: '/beneficiaries/individualBeneficiaries/0/ownershipPercentage', message: 'must be a number within the range of a 64-bit float (about ±1.8e308)' }],
    });
    expect(check(setAt(fullCompany(), '/beneficiaries/individualBeneficiaries/0/ownershipPercentage', 1e308))).toEqual(ok);
  });

  it('rejects an alpha-2 country in a claim, which takes CountryAlpha3', () => {
    const result = check(setAt(fullCompany(), '/companyClaims/0/country', 'GB'));
    expect(result.ok).toBe(false);
  });

  it('rejects a media type outside the wider metadata set', () => {
    const result = check(setAt(fullCompany(), '/documents/0/metadata/mediaType', 'image/gif'));
    expect(result.ok).toBe(false);
  });

  it('rejects a document type of rule documents in a customer document', () => {
    expect(check(setAt(fullCompany(), '/documents/0/documentType', 'selfie_image')).ok).toBe(false);
  });

  it('rejects a bad date-time and a bad email', () => {
    expect(check(setAt(fullCompany(), '/updatedAt', '2024-02-30T00:00:00Z'))).toEqual({
      ok: false,
      issues: [{ path: '/updatedAt', message: 'must be a date-time (RFC 3339)' }],
    });
    expect(check(setAt(fullCompany(), '/beneficiaries/companyBeneficiaries', [{ email: 'x' }])).ok).toBe(false);
  });

  it('keeps unlisted fields and reports each with its path', () => {
    const record = setAt(setAt(fullCompany(), '/companyClaims/0/foo', 1), '/documents/0/metadata/extra', 'x');
    expect(check(record)).toEqual({
      ok: true,
      warnings: [
        { path: '/companyClaims/0/foo', message: 'field not in the contract (kept)' },
        { path: '/documents/0/metadata/extra', message: 'field not in the contract (kept)' },
      ],
    });
  });
});
