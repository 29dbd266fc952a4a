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
