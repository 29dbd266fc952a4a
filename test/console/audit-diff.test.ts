/** The audit timeline's field diff: changed leaves by path, added and removed fields, values in words. */
import { describe, expect, it } from 'vitest';
import { auditDiff, noteInWords, truncated, valueInWords } from '../../console/src/audit-diff.js';

describe('auditDiff', () => {
  it('reports a changed field with its old and new value and ignores equal ones', () => {
    expect(auditDiff({ status: 'Open', name: 'A' }, { status: 'Closed', name: 'A' })).toEqual([{ kind: 'changed', path: 'status', before: 'Open', after: 'Closed' }]);
  });

  it('names nested changes by dotted path and array items by index', () => {
    const before = { notes: [{ name: 'n1' }], info: { a: 1 } };
    const after = { notes: [{ name: 'n1 edited' }, { name: 'n2' }], info: { a: 2 } };
    expect(auditDiff(before, after)).toEqual([
      { kind: 'changed', path: 'info.a', before: 1, after: 2 },
      { kind: 'changed', path: 'notes[0].name', before: 'n1', after: 'n1 edited' },
      { kind: 'added', path: 'notes[1]', after: { name: 'n2' } },
    ]);
  });

  it('reports fields that appear and disappear as added and removed', () => {
    expect(auditDiff({ reason: 'x' }, { assignedTo: 'ana' })).toEqual([
      { kind: 'added', path: 'assignedTo', after: 'ana' },
      { kind: 'removed', path: 'reason', before: 'x' },
    ]);
  });

  it('treats a change from null to a value as a change, not an addition', () => {
    expect(auditDiff({ assignedTo: null }, { assignedTo: 'ana' })).toEqual([{ kind: 'changed', path: 'assignedTo', before: null, after: 'ana' }]);
  });
});

describe('valueInWords', () => {
  it('says none, yes/no and lists small objects as pairs', () => {
    expect(valueInWords(null)).toBe('none');
    expect(valueInWords(true)).toBe('yes');
    expect(valueInWords({ name: 'n2', description: null })).toBe('name: n2');
    expect(valueInWords([])).toBe('(empty list)');
  });

  it('writes instants in UTC to the second, like the rest of the console', () => {
    expect(valueInWords('2024-05-02T08:09:34.630Z')).toBe('2024-05-02 08:09:34 UTC');
    expect(valueInWords('2024-05-02T10:09:34+02:00')).toBe('2024-05-02 08:09:34 UTC');
  });

  it('truncates long text with an ellipsis', () => {
    expect(truncated('x'.repeat(100), 10)).toBe(`${'x'.repeat(9)}…`);
    expect(truncated('short', 10)).toBe('short');
  });
});

describe('noteInWords', () => {
  const note = { id: 'n-1', name: 'Call with the customer', description: 'He confirmed the address', createdBy: 'ana', documents: [] };
  it('names a note added or removed by its name, not its fields', () => {
    expect(noteInWords('notes[3]', note)).toBe('note “Call with the customer”');
    expect(noteInWords('notes', [note, { ...note, name: 'Second call' }])).toBe('notes “Call with the customer”, “Second call”');
    expect(noteInWords('notes', [note])).toBe('note “Call with the customer”');
  });
  it('names a note’s document added or removed by its file name', () => {
    const doc = { id: 'd-1', objectKey: 'k', filename: 'passport.pdf', mimetype: 'application/pdf' };
    expect(noteInWords('notes[0].documents[1]', doc)).toBe('document “passport.pdf”');
    expect(noteInWords('notes[0].documents', [doc, { ...doc, filename: 'bill.png' }])).toBe('documents “passport.pdf”, “bill.png”');
    expect(noteInWords('notes[0].documents[1]', { id: 'd-1' })).toBeUndefined();
  });

  it('leaves other paths and nameless values to valueInWords', () => {
    expect(noteInWords('notes[3].description', 'x')).toBeUndefined();
    expect(noteInWords('assignedTo', note)).toBeUndefined();
    expect(noteInWords('notes[0]', { id: 'n-1' })).toBeUndefined();
    expect(noteInWords('notes', [])).toBeUndefined();
  });
});
