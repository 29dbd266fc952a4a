/** Finds a member name given twice in one JSON object: parsers disagree on which one wins, so such input is refused. */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Members of a parsed value, counted without recursion. */
function parsedMembers(value: unknown): number {
  let n = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v !== 'object' || v === null) continue;
    if (Array.isArray(v)) {
      for (const item of v) if (typeof item === 'object' && item !== null) stack.push(item);
    } else {
      for (const key in v) {
        n++;
        const item = (v as Record<string, unknown>)[key];
        if (typeof item === 'object' && item !== null) stack.push(item);
      }
    }
  }
  return n;
}

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
 * True when the text of a parsed JSON value repeats a member name somewhere. The parse keeps one
 * member per name, so a repeat leaves it with fewer members than the text writes; when the quick
 * count cannot rule that out (escaped quotes before a colon), the exact scan decides.
 */
export function hasDuplicateKey(text: string, parsed: unknown): boolean {
  if (nameEnds(text) === parsedMembers(parsed)) return false;
  return findDuplicateKey(Buffer.from(text, 'utf8')) !== null;
}

/**
 * JSON Pointer of the first object holding a repeated member name, or null. The input is known to
 * be valid JSON; one pass over the bytes with a stack of member-name sets, no full parse.
 */
export function findDuplicateKey(buf: Buffer): string | null {
  const stack: { keys: Set<string> | null; isObject: boolean; path: string; index: number }[] = [];
  let expectKey = false;
  let pendingKey = '';
  for (let i = 0; i < buf.length; i++) {
    const c = buf[i]!;
    if (c === QUOTE) {
      const start = i;
      i++;
      for (;;) {
        const q = buf.indexOf(QUOTE, i);
        let b = 0;
        for (let j = q - 1; buf[j] === BACKSLASH; j--) b++;
        i = q;
        if (b % 2 === 0) break;
        i++;
      }
      if (expectKey) {
        const bs = buf.indexOf(BACKSLASH, start);
        const escaped = bs > -1 && bs < i;
        const top = stack[stack.length - 1]!;
        const key = escaped ? (JSON.parse(buf.toString('utf8', start, i + 1)) as string) : buf.toString('utf8', start + 1, i);
        top.keys ??= new Set();
        if (top.keys.has(key)) return `${top.path}/${escapeKey(key)}`;
        top.keys.add(key);
        pendingKey = key;
        expectKey = false;
      }
      continue;
    }
    if (c === 0x7b || c === 0x5b) {
      const parent = stack[stack.length - 1];
      const path = parent === undefined ? '' : parent.isObject ? `${parent.path}/${escapeKey(pendingKey)}` : `${parent.path}/${parent.index}`;
      stack.push({ keys: null, isObject: c === 0x7b, path, index: 0 });
      expectKey = c === 0x7b;
    } else if (c === 0x7d || c === 0x5d) {
      stack.pop();
      expectKey = false;
    } else if (c === 0x2c) {
      const top = stack[stack.length - 1];
      if (top !== undefined) {
        if (top.isObject) expectKey = true;
        else top.index++;
      }
    }
  }
  return null;
}

function escapeKey(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}
