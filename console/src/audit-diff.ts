/** The field-level difference between two consecutive audit snapshots of an alert, for the audit timeline. */

export type FieldChange =
  | { kind: 'changed'; path: string; before: unknown; after: unknown }
  | { kind: 'added'; path: string; after: unknown }
  | { kind: 'removed'; path: string; before: unknown };

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every leaf that differs between `before` and `after`, by dotted path (array items as `notes[2]`), in a stable order. */
export function auditDiff(before: unknown, after: unknown, path = ''): FieldChange[] {
  if (isPlainObject(before) && isPlainObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    return keys.flatMap((key) => {
      const at = path === '' ? key : `${path}.${key}`;
      if (!(key in before) || before[key] === undefined) return after[key] === undefined ? [] : [{ kind: 'added' as const, path: at, after: after[key] }];
      if (!(key in after) || after[key] === undefined) return [{ kind: 'removed' as const, path: at, before: before[key] }];
      return auditDiff(before[key], after[key], at);
    });
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    const length = Math.max(before.length, after.length);
    return Array.from({ length }, (_, i) => i).flatMap((i) => {
      const at = `${path}[${i}]`;
      if (i >= before.length) return [{ kind: 'added' as const, path: at, after: after[i] }];
      if (i >= after.length) return [{ kind: 'removed' as const, path: at, before: before[i] }];
      return auditDiff(before[i], after[i], at);
    });
  }
  return sameValue(before, after) ? [] : [{ kind: 'changed', path, before, after }];
}

function sameValue(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

/** An instant as the rest of the console shows it (`2026-01-02 13:04 UTC`), to the second when seconds matter in a trail. */
function instantInWords(value: string): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** True when the value reads as quoted text (a string that is not an instant): none, yes/no and numbers stay bare. */
export function isText(value: unknown): boolean {
  return typeof value === 'string' && value !== '' && !ISO_INSTANT.test(value);
}

/** A value in words: `none` for null, yes/no, strings as they are, small objects as `key: value` pairs. */
export function valueInWords(value: unknown): string {
  if (value === null || value === undefined) return 'none';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'string') return value === '' ? '(empty)' : ISO_INSTANT.test(value) ? instantInWords(value) : value;
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (Array.isArray(value)) return value.length === 0 ? '(empty list)' : value.map(valueInWords).join('; ');
  if (isPlainObject(value)) {
    const entries = Object.entries(value).filter(([, v]) => v !== null && v !== undefined);
    return entries.length === 0 ? '(empty)' : entries.map(([k, v]) => `${k}: ${valueInWords(v)}`).join(', ');
  }
  return String(value as string);
}

/** A long text cut to `max` characters with an ellipsis; the caller keeps the full text in a title. */
export function truncated(text: string, max = 80): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

const NOTE_PATH = /^notes(\[\d+\])?$/;
const NOTE_DOCUMENT_PATH = /^notes\[\d+\]\.documents(\[\d+\])?$/;

/** The name of a note-like value, if it has one. */
function noteName(value: unknown): string | undefined {
  return isPlainObject(value) && typeof value.name === 'string' && value.name !== '' ? value.name : undefined;
}

/** The file name of a note's document, if it has one. */
function fileName(value: unknown): string | undefined {
  return isPlainObject(value) && typeof value.filename === 'string' && value.filename !== '' ? value.filename : undefined;
}

/**
 * A note added or removed (`notes[2]`, or the whole `notes` list) reads as its name, `note “Call with
 * the customer”`, and a note's document as its file name, not as their fields; undefined for any other path or value.
 */
export function noteInWords(path: string, value: unknown): string | undefined {
  if (NOTE_DOCUMENT_PATH.test(path)) {
    const files = (Array.isArray(value) ? value : [value]).map(fileName);
    if (files.length === 0 || files.some((f) => f === undefined)) return undefined;
    return `${files.length === 1 ? 'document' : 'documents'} ${files.map((f) => `“${f}”`).join(', ')}`;
  }
  if (!NOTE_PATH.test(path)) return undefined;
  const name = noteName(value);
  if (name !== undefined) return `note “${name}”`;
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const names = value.map(noteName);
  return names.every((n) => n !== undefined) ? `${names.length === 1 ? 'note' : 'notes'} ${names.map((n) => `“${n}”`).join(', ')}` : undefined;
}
