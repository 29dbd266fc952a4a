import { describe, expect, it } from 'vitest';
import { fullAlert } from '../../src/contract/examples.js';
import { deleteAt, getAt, setAt } from '../support/json-pointer.js';
import { validateRecord } from '../../src/contract/validators.js';

const ok = { ok: true, warnings: [] };
const check = (record: unknown) => validateRecord('alert', record);
const required = (path: string) => ({ ok: false, issues: [{ path, message: 'is required' }] });
const SP = '/screeningProviderData';
const SR = `${SP}/searchResult`;
const DOC = `${SR}/hits/0/doc`;
const KEY = `${SP}/searchEntities/0/key_information`;
const RQ = `${SP}/requestData`;

describe('screening provider data (SPEC 2.4.1)', () => {
  it.each([
    'id', 'customerId', 'searchId', 'searchRef', 'searchResult', 'requestData', 'executionId', 'alertId', 'isMonitored',
    'createdAt', 'updatedAt',
  ])('requires %s', (field) => {
    expect(check(deleteAt(fullAlert(), `${SP}/${field}`))).toEqual(required(`${SP}/${field}`));
  });

  it.each(['searchId', 'searchRef', 'alertId', 'isMonitored', 'searchEntities'])('accepts null for %s', (field) => {
    expect(check(setAt(fullAlert(), `${SP}/${field}`, null))).toEqual(ok);
  });

  it('leaves searchEntities optional', () => {
    expect(check(deleteAt(fullAlert(), `${SP}/searchEntities`))).toEqual(ok);
  });

  it('rejects a non-uuid alertId', () => {
    expect(check(setAt(fullAlert(), `${SP}/alertId`, 'alert-1'))).toEqual({
      ok: false,
      issues: [{ path: `${SP}/alertId`, message: 'must be a uuid' }],
    });
  });

  describe('searchResult', () => {
    it.each([
      'client_ref', 'id', 'ref', 'searcher_id', 'assignee_id', 'match_status', 'risk_level', 'search_term',
      'submitted_term', 'total_hits', 'total_matches', 'total_blacklist_hits', 'created_at', 'updated_at', 'labels',
      'limit', 'offset',
    ])('requires %s', (field) => {
      expect(check(deleteAt(fullAlert(), `${SR}/${field}`))).toEqual(required(`${SR}/${field}`));
    });

    it.each(['filters', 'tags', 'searcher', 'assignee', 'hits', 'blacklist_hits'])('leaves %s optional', (field) => {
      expect(check(deleteAt(fullAlert(), `${SR}/${field}`))).toEqual(ok);
    });

    it.each(['id', 'email', 'name', 'phone', 'created_at', 'user_is_active'])('requires searcher and assignee %s', (field) => {
      expect(check(deleteAt(fullAlert(), `${SR}/searcher/${field}`))).toEqual(required(`${SR}/searcher/${field}`));
      expect(check(deleteAt(fullAlert(), `${SR}/assignee/${field}`))).toEqual(required(`${SR}/assignee/${field}`));
    });

    it('checks the searcher email format', () => {
      expect(check(setAt(fullAlert(), `${SR}/searcher/email`, 'analyst'))).toEqual({
        ok: false,
        issues: [{ path: `${SR}/searcher/email`, message: 'must be an email address' }],
      });
    });

    it('accepts null for every filter and leaves each optional', () => {
      for (const field of ['types', 'birth_year', 'remove_deceased', 'entity_type', 'country_codes']) {
        expect(check(setAt(fullAlert(), `${SR}/filters/${field}`, null)), field).toEqual(ok);
        expect(check(deleteAt(fullAlert(), `${SR}/filters/${field}`)), field).toEqual(ok);
      }
    });

    it('rejects an alpha-3 code in country_codes, which takes CountryAlpha2', () => {
      expect(check(setAt(fullAlert(), `${SR}/filters/country_codes/0`, 'GBR')).ok).toBe(false);
    });
  });

  describe('maximum 1 bounds (SPEC part 8)', () => {
    it.each([`${RQ}/fuzziness`, `${RQ}/share_url`, `${SR}/filters/remove_deceased`, `${RQ}/filters/remove_deceased`])(
      'accepts 1, 0.5, 0 and null and rejects 1.01 and 2 at %s',
      (pointer) => {
        for (const value of [1, 0.5, 0, null]) expect(check(setAt(fullAlert(), pointer, value)), String(value)).toEqual(ok);
        for (const value of [1.01, 2]) {
          expect(check(setAt(fullAlert(), pointer, value))).toEqual({
            ok: false,
            issues: [{ path: pointer, message: 'must be at most 1' }],
          });
        }
      },
    );
  });

  describe('requestData', () => {
    it.each(['search_term', 'client_ref'])('requires %s', (field) => {
      expect(check(deleteAt(fullAlert(), `${RQ}/${field}`))).toEqual(required(`${RQ}/${field}`));
    });

    it('accepts null for the nullable request fields and leaves them optional', () => {
      for (const field of ['search_profile', 'fuzziness', 'offset', 'limit', 'tags', 'share_url', 'exact_match']) {
        expect(check(setAt(fullAlert(), `${RQ}/${field}`, null)), field).toEqual(ok);
        expect(check(deleteAt(fullAlert(), `${RQ}/${field}`)), field).toEqual(ok);
      }
    });

    it('keeps extra fields of tag items without warning', () => {
      expect(check(setAt(fullAlert(), `${RQ}/tags/0/source`, 'ops'))).toEqual(ok);
    });

    it('warns about an unlisted request field', () => {
      expect(check(setAt(fullAlert(), `${RQ}/countries`, ['GB']))).toEqual({
        ok: true,
        warnings: [{ path: `${RQ}/countries`, message: 'field not in the contract (kept)' }],
      });
    });
  });

  describe('hits', () => {
    it.each(['doc', 'match_status', 'is_whitelisted', 'score'])('requires hit field %s', (field) => {
      expect(check(deleteAt(fullAlert(), `${SR}/hits/0/${field}`))).toEqual(required(`${SR}/hits/0/${field}`));
    });

    it.each([
      'id', 'last_updated_utc', 'created_utc', 'types', 'name', 'entity_type', 'aka', 'sources', 'keywords',
      'match_types', 'match_types_details',
    ])('requires doc field %s', (field) => {
      expect(check(deleteAt(fullAlert(), `${DOC}/${field}`))).toEqual(required(`${DOC}/${field}`));
    });

    it.each(['fields', 'associates', 'media', 'source_notes'])('leaves doc field %s optional', (field) => {
      expect(check(deleteAt(fullAlert(), `${DOC}/${field}`))).toEqual(ok);
    });

    it.each(['aml_types', 'matching_name', 'name_matches', 'secondary_matches', 'sources'])(
      'requires match_types_details field %s',
      (field) => {
        const pointer = `${DOC}/match_types_details/0/${field}`;
        expect(check(deleteAt(fullAlert(), pointer))).toEqual(required(pointer));
      },
    );

    it('requires snippet, title and url of media, and name and value of doc fields', () => {
      for (const pointer of [`${DOC}/media/0/snippet`, `${DOC}/media/0/title`, `${DOC}/media/0/url`, `${DOC}/fields/0/name`,
        `${DOC}/fields/0/value`, `${DOC}/associates/0/association`, `${DOC}/associates/0/name`]) {
        expect(check(deleteAt(fullAlert(), pointer))).toEqual(required(pointer));
      }
    });

    it('keeps any shape of source_notes, keywords and blacklist hits without warning', () => {
      let record = setAt(fullAlert(), `${DOC}/source_notes`, { a: { b: [1] } });
      record = setAt(record, `${DOC}/keywords`, [{ k: 1 }, 'x']);
      record = setAt(record, `${SR}/blacklist_hits`, [{ any: 'thing' }]);
      record = setAt(record, `${SR}/tags`, [{ name: 'a', value: 'b', extra: 1 }]);
      record = setAt(record, `${SR}/labels`, [{ id: 1 }]);
      expect(check(record)).toEqual(ok);
    });

    it('warns about an unlisted doc field', () => {
      expect(check(setAt(fullAlert(), `${DOC}/extra`, 1))).toEqual({
        ok: true,
        warnings: [{ path: `${DOC}/extra`, message: 'field not in the contract (kept)' }],
      });
    });
  });

  describe('searchEntities', () => {
    it.each(['id', 'last_updated_utc', 'created_utc'])('requires entity field %s', (field) => {
      const pointer = `${SP}/searchEntities/0/${field}`;
      expect(check(deleteAt(fullAlert(), pointer))).toEqual(required(pointer));
    });

    it('accepts null key_information and leaves it optional', () => {
      expect(check(setAt(fullAlert(), KEY, null))).toEqual(ok);
      expect(check(deleteAt(fullAlert(), KEY))).toEqual(ok);
    });

    it.each(['name', 'entity_type'])('requires key_information %s, not nullable', (field) => {
      expect(check(deleteAt(fullAlert(), `${KEY}/${field}`))).toEqual(required(`${KEY}/${field}`));
      expect(check(setAt(fullAlert(), `${KEY}/${field}`, null)).ok).toBe(false);
    });

    it('accepts null for every other key_information field', () => {
      const fields = Object.keys(getAt(fullAlert(), KEY) as object).filter((f) => f !== 'name' && f !== 'entity_type');
      expect(fields).toHaveLength(26);
      for (const field of fields) {
        expect(check(setAt(fullAlert(), `${KEY}/${field}`, null)), field).toEqual(ok);
        expect(check(deleteAt(fullAlert(), `${KEY}/${field}`)), field).toEqual(ok);
      }
    });

    it('keeps uncategorized and full_listing contents without warning', () => {
      let record = setAt(fullAlert(), `${KEY}/uncategorized`, { x: { y: 1 } });
      record = setAt(record, `${KEY}/full_listing`, { raw: { a: [1] } });
      expect(check(record)).toEqual(ok);
    });

    it('warns about an unlisted key_information field', () => {
      expect(check(setAt(fullAlert(), `${KEY}/nickname`, 'x'))).toEqual({
        ok: true,
        warnings: [{ path: `${KEY}/nickname`, message: 'field not in the contract (kept)' }],
      });
    });
  });
});
