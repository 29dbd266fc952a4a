import { describe, expect, it } from 'vitest';
import { credential, fullAlert } from '../../src/contract/examples.js';
import { deleteAt, setAt } from '../support/json-pointer.js';
import { validateRecord } from '../../src/contract/validators.js';

const ok = { ok: true, warnings: [] };
const check = (record: unknown) => validateRecord('alert', record);
const required = (path: string) => ({ ok: false, issues: [{ path, message: 'is required' }] });
const CRED = '/results/0/data/IDImage';
const RULE_DATA = '/results/2/data/ruleData';

describe('alert results (SPEC 2.4.3)', () => {
  it.each(['data', 'status', 'cmsScenarioId'])('accepts null for %s and leaves it optional', (field) => {
    expect(check(setAt(fullAlert(), `/results/0/${field}`, null))).toEqual(ok);
    expect(check(deleteAt(fullAlert(), `/results/0/${field}`))).toEqual(ok);
  });

  it.each(['AMLScreeningsResults', 'ProofOfResidence', 'IDScanSelfie', 'IDImage', 'IDInformation', 'SelfieImage'])(
    'accepts a credential or null as the %s alternative',
    (name) => {
      expect(check(setAt(fullAlert(), `/results/0/data`, { [name]: credential() }))).toEqual(ok);
      expect(check(setAt(fullAlert(), `/results/0/data`, { [name]: null }))).toEqual(ok);
      expect(check(setAt(fullAlert(), `/results/0/data`, { [name]: 'x' })).ok).toBe(false);
    },
  );

  it('accepts TFHEResult as a string or null, and RulesEngineInputData as any object or null', () => {
    expect(check(setAt(fullAlert(), '/results/1/data', { TFHEResult: null, RulesEngineInputData: null }))).toEqual(ok);
    expect(check(setAt(fullAlert(), '/results/1/data/RulesEngineInputData', { a: { b: 1 } }))).toEqual(ok);
    expect(check(setAt(fullAlert(), '/results/1/data/TFHEResult', 1)).ok).toBe(false);
  });

  it('accepts an empty data object', () => {
    expect(check(setAt(fullAlert(), '/results/0/data', {}))).toEqual(ok);
  });

  it('warns about an alternative the spec does not list', () => {
    expect(check(setAt(fullAlert(), '/results/0/data/Passport', {}))).toEqual({
      ok: true,
      warnings: [{ path: '/results/0/data/Passport', message: 'field not in the contract (kept)' }],
    });
  });

  describe('credential object', () => {
    it.each(['id', 'type', 'credentialSubject', 'credentialStatus', 'issuer', 'credentialSchema'])('requires %s', (field) => {
      expect(check(deleteAt(fullAlert(), `${CRED}/${field}`))).toEqual(required(`${CRED}/${field}`));
    });

    it.each(['@context', 'expirationDate', 'issuanceDate', 'proof'])('leaves %s optional', (field) => {
      expect(check(deleteAt(fullAlert(), `${CRED}/${field}`))).toEqual(ok);
    });

    it('requires id and type of credentialStatus and credentialSchema; revocationNonce is optional', () => {
      for (const pointer of [`${CRED}/credentialStatus/id`, `${CRED}/credentialStatus/type`, `${CRED}/credentialSchema/id`,
        `${CRED}/credentialSchema/type`]) {
        expect(check(deleteAt(fullAlert(), pointer))).toEqual(required(pointer));
      }
      expect(check(deleteAt(fullAlert(), `${CRED}/credentialStatus/revocationNonce`))).toEqual(ok);
    });

    it('rejects a status type written with the X3 placeholder', () => {
      expect(check(setAt(fullAlert(), `${CRED}/credentialStatus/type`, 'X3commRevocationStatusV1.0')).ok).toBe(false);
    });

    it('keeps any credentialSubject and proof contents without warning', () => {
      let record = setAt(fullAlert(), `${CRED}/credentialSubject`, { personalData: { firstName: 'A' }, x: 1 });
      record = setAt(record, `${CRED}/proof`, { type: 'BJJSignature2021', coreClaim: 'abc' });
      expect(check(record)).toEqual(ok);
    });

    it('warns about an unlisted credential field', () => {
      expect(check(setAt(fullAlert(), `${CRED}/refreshService`, {}))).toEqual({
        ok: true,
        warnings: [{ path: `${CRED}/refreshService`, message: 'field not in the contract (kept)' }],
      });
    });
  });

  describe('ruleData', () => {
    it('requires attribute, as rule_data does', () => {
      expect(check(deleteAt(fullAlert(), `${RULE_DATA}/attribute`))).toEqual(required(`${RULE_DATA}/attribute`));
    });

    it('checks the attribute path and operator', () => {
      expect(check(setAt(fullAlert(), `${RULE_DATA}/attribute/path`, 'KycSession/vcs/IDImage/v2')).ok).toBe(false);
      expect(check(setAt(fullAlert(), `${RULE_DATA}/operator`, 'eq')).ok).toBe(false);
    });

    it('accepts a null value and rejects an object value', () => {
      expect(check(setAt(fullAlert(), `${RULE_DATA}/value`, null))).toEqual(ok);
      expect(check(setAt(fullAlert(), `${RULE_DATA}/value`, {})).ok).toBe(false);
    });

    it('lists no type field, so a type is kept with a warning', () => {
      expect(check(setAt(fullAlert(), `${RULE_DATA}/type`, 'IDImage'))).toEqual({
        ok: true,
        warnings: [{ path: `${RULE_DATA}/type`, message: 'field not in the contract (kept)' }],
      });
    });
  });
});
