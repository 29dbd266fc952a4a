import { describe, expect, it } from 'vitest';
import { fullAlert, fullCompany } from '../../src/contract/examples.js';
import { isUuid } from '../../src/contract/formats.js';
import { setAt } from '../support/json-pointer.js';
import { contractAjv, validateRecord } from '../../src/contract/validators.js';

describe('uuid format', () => {
  it.each([
    '3b241101-e2bb-4255-8caf-4136c566a962',
    '3B241101-E2BB-4255-8CAF-4136C566A962',
    '3b241101-E2bb-4255-8caf-4136C566a962',
    '00000000-0000-0000-0000-000000000000',
  ])('accepts %s in either letter case', (value) => {
    expect(isUuid(value)).toBe(true);
  });

  it.each([
    'urn:uuid:3b241101-e2bb-4255-8caf-4136c566a962',
    '{3b241101-e2bb-4255-8caf-4136c566a962}',
    '3b241101e2bb42558caf4136c566a962',
    '3b241101-e2bb-4255-8caf-4136c566a96',
    '3b241101-e2bb-4255-8caf-4136c566a962 ',
    'gb241101-e2bb-4255-8caf-4136c566a962',
    '',
  ])('rejects %j', (value) => {
    expect(isUuid(value)).toBe(false);
  });

  it('reports a non-uuid id as "must be a uuid"', () => {
    expect(validateRecord('alert', setAt(fullAlert(), '/customerId', 'cust-1'))).toEqual({
      ok: false,
      issues: [{ path: '/customerId', message: 'must be a uuid' }],
    });
  });
});

describe('email format', () => {
  it('accepts an address and rejects a non-address with a clear message', () => {
    const pointer = '/beneficiaries/individualBeneficiaries/0/email';
    expect(validateRecord('customer', setAt(fullCompany(), pointer, 'a.b+c@example.co.uk')).ok).toBe(true);
    expect(validateRecord('customer', setAt(fullCompany(), pointer, 'not an email'))).toEqual({
      ok: false,
      issues: [{ path: pointer, message: 'must be an email address' }],
    });
  });
});

describe('uri format', () => {
  it('checks media urls of screening hits', () => {
    const pointer = '/screeningProviderData/searchResult/hits/0/doc/media/0/url';
    expect(validateRecord('alert', setAt(fullAlert(), pointer, 'https://example.com/a?b=c#d')).ok).toBe(true);
    expect(validateRecord('alert', setAt(fullAlert(), pointer, 'not a uri'))).toEqual({
      ok: false,
      issues: [{ path: pointer, message: 'must be a URI' }],
    });
  });
});

describe('format registration', () => {
  it('registers every format the schemas use', () => {
    for (const format of ['uuid', 'date-time', 'email', 'uri', 'currency-code', 'attribute-path']) {
      expect(contractAjv.formats[format], format).toBeDefined();
    }
  });

  it('applies formats to strings only, so nullable formatted fields accept null', () => {
    expect(validateRecord('customer', setAt(fullCompany(), '/createdAt', null)).ok).toBe(true);
  });
});
