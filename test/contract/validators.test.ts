import { describe, expect, it } from 'vitest';
import { fullAlert, fullCompany, fullExecution, minimalAlert } from '../../src/contract/examples.js';
import { pointerSegment } from '../../src/contract/messages.js';
import { setAt } from '../support/json-pointer.js';
import { validateRecord, type RecordKind } from '../../src/contract/validators.js';

describe('validateRecord', () => {
  it('never alters the record: no coercion, no removed fields, no defaults', () => {
    const record = setAt(setAt(fullAlert(), '/unknown', { nested: [1] }), '/notes/0/extra', 'x');
    const before = structuredClone(record);
    expect(validateRecord('alert', record).ok).toBe(true);
    expect(record).toEqual(before);
    const minimal = minimalAlert();
    const minimalBefore = structuredClone(minimal);
    validateRecord('alert', minimal);
    expect(minimal).toEqual(minimalBefore);
    expect(Object.keys(minimal)).toEqual(Object.keys(minimalBefore));
  });

  it('does not coerce strings to numbers', () => {
    const pointer = '/screeningProviderData/searchId';
    expect(validateRecord('alert', setAt(fullAlert(), pointer, '42'))).toEqual({
      ok: false,
      issues: [{ path: pointer, message: 'must be a number or null' }],
    });
  });

  it.each<[RecordKind, unknown]>([
    ['customer', null],
    ['execution', []],
    ['alert', 'alert'],
  ])('rejects a %s record that is not an object, at the root pointer', (kind, value) => {
    expect(validateRecord(kind, value)).toEqual({ ok: false, issues: [{ path: '', message: 'must be an object' }] });
  });

  it('reports every problem at once, each at its own JSON Pointer', () => {
    const record = minimalAlert();
    delete record.name;
    record.severity = 'low';
    record.createdAt = '2024-02-30T00:00:00Z';
    record.description = 5;
    const result = validateRecord('alert', record);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues).toEqual(
      expect.arrayContaining([
        { path: '/name', message: 'is required' },
        { path: '/severity', message: 'must be one of: Low, Medium, High' },
        { path: '/createdAt', message: 'must be a date-time (RFC 3339)' },
        { path: '/description', message: 'must be a string or null' },
      ]),
    );
    expect(result.issues).toHaveLength(4);
  });

  it('reports only the type error for a value of the wrong type, not its enum too', () => {
    expect(validateRecord('customer', setAt(fullCompany(), '/riskScore', 3))).toEqual({
      ok: false,
      issues: [{ path: '/riskScore', message: 'must be a string or null' }],
    });
  });

  it('escapes ~ and / in the paths of unlisted fields (RFC 6901)', () => {
    expect(validateRecord('alert', setAt(fullAlert(), '/a~1b~0c', 1))).toEqual({
      ok: true,
      warnings: [{ path: '/a~1b~0c', message: 'field not in the contract (kept)' }],
    });
  });

  it('escapes ~ and / in property names used as pointer segments', () => {
    expect(pointerSegment('a/b~c')).toBe('a~1b~0c');
    expect(pointerSegment('@context')).toBe('@context');
  });

  it('gives no warnings for an invalid record, only its issues', () => {
    const result = validateRecord('alert', setAt(setAt(fullAlert(), '/extra', 1), '/seen', 'yes'));
    expect(result).toEqual({ ok: false, issues: [{ path: '/seen', message: 'must be a boolean' }] });
  });

  it('does not carry warnings from one call into the next', () => {
    expect(validateRecord('alert', setAt(fullAlert(), '/extra', 1)).ok).toBe(true);
    expect(validateRecord('alert', setAt(fullAlert(), '/extra', 'x'))).toEqual({
      ok: true,
      warnings: [{ path: '/extra', message: 'field not in the contract (kept)' }],
    });
    expect(validateRecord('execution', fullExecution())).toEqual({ ok: true, warnings: [] });
  });

  it('throws on an unknown record kind', () => {
    expect(() => validateRecord('invoice' as RecordKind, {})).toThrow(/unknown record kind/);
  });

  it('validates complete alerts quickly enough for bulk import', () => {
    const record = fullAlert();
    const start = performance.now();
    for (let i = 0; i < 5000; i++) validateRecord('alert', record);
    // ~30 µs each on a laptop; the bound only catches an accidental recompile per call.
    expect(performance.now() - start).toBeLessThan(5000);
  });
});
