/** Finds a member name given twice in one JSON object: parsers disagree on which one wins, so such input is refused. */
import { CLOSE_ARRAY, CLOSE_OBJECT, COMMA, JsonTokens, OPEN_ARRAY, OPEN_OBJECT, STRING } from '../wire/json-tokens.js';

const QUOTE = 0x22;

/**
 * Colons preceded (across whitespace) by a quote: every member name ends so. An escaped quote
 * inside a string can look the same, so this may over-count, never under-count. Colons are
 * found with the native indexOf: a regex match would build an array of every match first.
 */
function nameEnds(text: string): number {
  let n = 0;
  for (let i = text.indexOf(':'); i !== -1; i = text.indexOf(':', i + 1)) {
    let j = i - 1;
    let c = text.charCodeAt(j);
    while (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) c = text.charCodeAt(--j);
    if (c === QUOTE) n++;
  }
  return n;
}

/**
 * True when the text of a parsed JSON value repeats a member name somewhere, given the parse's
 * member count (src/ingest/parsed-shape.ts). The parse keeps one member per name, so a repeat
 * leaves it with fewer members than the text writes; when the quick count cannot rule that out
 * (escaped quotes before a colon), the exact scan decides.
 */
export function hasDuplicateKey(text: string, parsedMembers: number): boolean {
  if (nameEnds(text) === parsedMembers) return false;
  return findDuplicateKey(Buffer.from(text, 'utf8')) !== null;
}

/**
 * JSON Pointer of the first object holding a repeated member name, or null. The input is known to
 * be valid JSON; one pass over its tokens with a stack of member-name sets, no full parse.
 */
export function findDuplicateKey(buf: Buffer): string | null {
  const stack: { keys: Set<string> | null; isObject: boolean; path: string; index: number }[] = [];
  let expectKey = false;
  let pendingKey = '';
  const t = new JsonTokens(buf);
  for (let kind = t.next(); kind !== 0; kind = t.next()) {
    switch (kind) {
      case STRING:
        if (expectKey) {
          const top = stack[stack.length - 1]!;
          const key = t.text();
          top.keys ??= new Set();
          if (top.keys.has(key)) return `${top.path}/${escapeKey(key)}`;
          top.keys.add(key);
          pendingKey = key;
          expectKey = false;
        }
        break;
      case OPEN_OBJECT:
      case OPEN_ARRAY: {
        const parent = stack[stack.length - 1];
        const path = parent === undefined ? '' : parent.isObject ? `${parent.path}/${escapeKey(pendingKey)}` : `${parent.path}/${parent.index}`;
        stack.push({ keys: null, isObject: kind === OPEN_OBJECT, path, index: 0 });
        expectKey = kind === OPEN_OBJECT;
        break;
      }
      case CLOSE_OBJECT:
      case CLOSE_ARRAY:
        stack.pop();
        expectKey = false;
        break;
      case COMMA: {
        const top = stack[stack.length - 1];
        if (top !== undefined) {
          if (top.isObject) expectKey = true;
          else top.index++;
        }
        break;
      }
    }
  }
  return null;
}

function escapeKey(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}
