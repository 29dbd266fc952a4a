/**
 * Values the stores keep in index entries (record and execution ids, scenario ids, assignees):
 * PostgreSQL bounds an index entry, so a longer value is refused at import, on every store alike.
 */
import { isStorableText, UNSTORABLE_MESSAGE } from './storable-text.js';

/** Most UTF-8 bytes of one keyed value: several of them share an index entry. */
export const MAX_KEYED_BYTES = 512;

/** What a value past MAX_KEYED_BYTES is told. */
export const KEYED_TOO_LONG_MESSAGE = `must be at most ${MAX_KEYED_BYTES} bytes in UTF-8: the service keys and filters records by it`;

/** Why `value` cannot be a keyed value, or undefined when it can. */
export function keyedTextProblem(value: string): string | undefined {
  if (!isStorableText(value)) return UNSTORABLE_MESSAGE;
  // A UTF-16 length past a quarter of the bound may still fit; count bytes only then.
  if (value.length * 3 > MAX_KEYED_BYTES && Buffer.byteLength(value, 'utf8') > MAX_KEYED_BYTES) return KEYED_TOO_LONG_MESSAGE;
  return undefined;
}
