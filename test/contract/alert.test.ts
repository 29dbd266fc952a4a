import { describe, expect, it } from 'vitest';
import { fullAlert, minimalAlert } from '../../src/contract/examples.js';
import { deleteAt, setAt } from '../support/json-pointer.js';
import { validateRecord } from '../../src/contract/validators.js';

const ok = { ok: true, warnings: [] };
const check = (record: unknown) => validateRecord('alert', record);
const required = (path: string) => ({ ok: false, issues: [{ path, message: 'is required' }] });

const REQUIRED = [
  'id', 'severity', 'category', 'type', 'status', 'name', 'description', 'assignedTo', 'seen', 'customerId',
  'cmsProjectId', 'createdAt', 'updatedAt', 'createdBy', 'updatedBy', 'reason', 'audits',
];

describe('alert record (SPEC 2.4)', () => {
  it('accepts an alert with only the required fields, and one with every field', () => {
    expect(check(minimalAlert())).toEqual(ok);
    expect(check(fullAlert())).toEqual(ok);
  });

  it.each(REQUIRED)('requires %s', (field) => {
    expect(check(deleteAt(fullAlert(), `/${field}`))).toEqual(required(`/${field}`));
  });

  it.each(['description', 'assignedTo', 'reason', 'workflowSessionId'])('accepts null for %s', (field) => {
    expect(check(setAt(fullAlert(), `/${field}`, null))).toEqual(ok);
  });

  it.each([
    ['id', 'must be a string'],
    ['severity', 'must be a string'],
    ['name', 'must be a string'],
    ['seen', 'must be a boolean'],
    ['createdAt', 'must be a string'],
    ['cmsProjectId', 'must be a string'],
    ['audits', 'must be an array'],
    ['notes', 'must be an array'],
  ])('rejects null for %s, which is not nullable', (field, message) => {
    expect(check(setAt(fullAlert(), `/${field}`, null))).toEqual({ ok: false, issues: [{ path: `/${field}`, message }] });
  });

  it.each(['workflowSessionId', 'notes', 'screeningProviderData', 'duplicateData', 'results', 'transactions'])(
    'leaves %s optional',
    (field) => {
      expect(check(deleteAt(fullAlert(), `/${field}`))).toEqual(ok);
    },
  );

  it.each(['screeningProviderData', 'duplicateData', 'results', 'transactions'])('accepts null for %s', (field) => {
    expect(check(setAt(fullAlert(), `/${field}`, null))).toEqual(ok);
  });

  it('rejects an alert whose severity is not an AlertSeverity', () => {
    expect(check(setAt(fullAlert(), '/severity', 'No risk'))).toEqual({
      ok: false,
      issues: [{ path: '/severity', message: 'must be one of: Low, Medium, High' }],
    });
  });

  it('does not coerce: seen must be a real boolean', () => {
    expect(check(setAt(fullAlert(), '/seen', 'false'))).toEqual({
      ok: false,
      issues: [{ path: '/seen', message: 'must be a boolean' }],
    });
  });

  describe('notes', () => {
    const NOTE = '/notes/0';
    it.each(['id', 'name', 'description', 'cmsProjectId', 'createdAt', 'updatedAt', 'createdBy', 'updatedBy'])(
      'requires %s',
      (field) => {
        expect(check(deleteAt(fullAlert(), `${NOTE}/${field}`))).toEqual(required(`${NOTE}/${field}`));
      },
    );

    it('leaves data and documents optional', () => {
      expect(check(deleteAt(deleteAt(fullAlert(), `${NOTE}/data`), `${NOTE}/documents`))).toEqual(ok);
    });

    it.each([null, 1, 'text', [1, 'a'], { any: { shape: true } }])('accepts any data value: %j', (data) => {
      expect(check(setAt(fullAlert(), `${NOTE}/data`, data))).toEqual(ok);
    });

    it('accepts a null description, not a null name', () => {
      expect(check(setAt(fullAlert(), `${NOTE}/description`, null))).toEqual(ok);
      expect(check(setAt(fullAlert(), `${NOTE}/name`, null)).ok).toBe(false);
    });

    it.each(['id', 'objectKey', 'filename', 'mimetype', 'description', 'cmsProjectId', 'createdAt', 'createdBy', 'presignedUrl'])(
      'requires document field %s',
      (field) => {
        const pointer = `${NOTE}/documents/0/${field}`;
        expect(check(deleteAt(fullAlert(), pointer))).toEqual(required(pointer));
      },
    );

    it('accepts a null document description, not a null filename', () => {
      expect(check(setAt(fullAlert(), `${NOTE}/documents/0/description`, null))).toEqual(ok);
      expect(check(setAt(fullAlert(), `${NOTE}/documents/0/filename`, null)).ok).toBe(false);
    });

    it('rejects a document objectKey that is not a uuid', () => {
      expect(check(setAt(fullAlert(), `${NOTE}/documents/0/objectKey`, 'files/a.pdf'))).toEqual({
        ok: false,
        issues: [{ path: `${NOTE}/documents/0/objectKey`, message: 'must be a uuid' }],
      });
    });
  });

  describe('audits', () => {
    it.each(['timestamp', 'action', 'record'])('requires %s', (field) => {
      expect(check(deleteAt(fullAlert(), `/audits/0/${field}`))).toEqual(required(`/audits/0/${field}`));
    });

    it('leaves author optional and nullable', () => {
      expect(check(deleteAt(fullAlert(), '/audits/1/author'))).toEqual(ok);
      expect(check(setAt(fullAlert(), '/audits/1/author', null))).toEqual(ok);
    });

    it('accepts a snapshot with no fields at all', () => {
      expect(check(setAt(fullAlert(), '/audits/0/record', {}))).toEqual(ok);
    });

    it('checks snapshot fields with the alert types and allowed values', () => {
      expect(check(setAt(fullAlert(), '/audits/0/record/severity', 'Critical'))).toEqual({
        ok: false,
        issues: [{ path: '/audits/0/record/severity', message: 'must be one of: Low, Medium, High' }],
      });
      expect(check(setAt(fullAlert(), '/audits/0/record/customerId', 'c-1')).ok).toBe(false);
      expect(check(setAt(fullAlert(), '/audits/0/record/reason', null))).toEqual(ok);
      expect(check(setAt(fullAlert(), '/audits/0/record/notes', [{ id: 'x' }])).ok).toBe(false);
    });

    it('keeps fields beyond the alert fields in a snapshot without warning', () => {
      const record = setAt(fullAlert(), '/audits/0/record/audits', [{ anything: 1 }]);
      expect(check(setAt(record, '/audits/0/record/legacyField', 'x'))).toEqual(ok);
    });

    it('rejects an action outside AuditAction', () => {
      expect(check(setAt(fullAlert(), '/audits/0/action', 'delete')).ok).toBe(false);
    });
  });

  describe('duplicateData (SPEC 2.4.2)', () => {
    it.each(['/duplicateData/original', '/duplicateData/duplicate', '/duplicateData/original/customerId'])(
      'requires %s',
      (pointer) => {
        expect(check(deleteAt(fullAlert(), pointer))).toEqual(required(pointer));
      },
    );

    it('accepts null for the optional party fields, not for customerId', () => {
      for (const field of ['customerInfo', 'profilePicture', 'idDocumentUrl']) {
        expect(check(setAt(fullAlert(), `/duplicateData/duplicate/${field}`, null))).toEqual(ok);
        expect(check(deleteAt(fullAlert(), `/duplicateData/duplicate/${field}`))).toEqual(ok);
      }
      expect(check(setAt(fullAlert(), '/duplicateData/duplicate/customerId', null)).ok).toBe(false);
    });
  });

  it('reports unlisted top-level and note fields as warnings, keeping them', () => {
    const record = setAt(setAt(fullAlert(), '/extra', { a: 1 }), '/notes/0/pinned', true);
    const result = check(record);
    expect(result).toEqual({
      ok: true,
      warnings: expect.arrayContaining([
        { path: '/extra', message: 'field not in the contract (kept)' },
        { path: '/notes/0/pinned', message: 'field not in the contract (kept)' },
      ]),
    });
    expect(result.ok && result.warnings).toHaveLength(2);
    expect(record.extra).toEqual({ a: 1 });
  });
});
