/** Finds a member name given twice in one JSON object: parsers disagree on which one wins, so such input is refused. */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

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
