/**
 * The JSON tokenizer the byte scanners share (document splices, duplicate member names, the
 * envelope's members): a cursor over the bytes that yields one token at a time, no allocation.
 *
 * It does not validate: the texts it reads were parsed already, or are refused by the caller on
 * unbalanced nesting. Long strings (base64 images, 1 MB records) are skipped with a native
 * `indexOf` for the next quote; UTF-8 continuation bytes never look like ASCII, so bytes suffice.
 */

export const STRING = 1;
export const OPEN_OBJECT = 2;
export const CLOSE_OBJECT = 3;
export const OPEN_ARRAY = 4;
export const CLOSE_ARRAY = 5;
export const COMMA = 6;
/** A number, true, false or null (or any other run of bytes up to a delimiter). */
export const SCALAR = 8;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** A cursor over JSON bytes: `next()` moves to the next token, whose kind and byte span it then holds. */
export class JsonTokens {
  kind = 0;
  /** Byte offset of the token's first byte (a string's opening quote). */
  start = 0;
  /** Byte offset just past the token (past a string's closing quote). */
  end: number;

  constructor(
    readonly buf: Buffer,
    at = 0,
  ) {
    this.end = at;
  }

  /** Moves to the next token (colons are skipped) and returns its kind; 0 when only whitespace is left. */
  next(): number {
    const buf = this.buf;
    const n = buf.length;
    let i = this.end;
    while (i < n) {
      const c = buf[i]!;
      this.start = i;
      // Strings first: most tokens are member names and string values.
      if (c === QUOTE) {
        this.end = stringEnd(buf, i);
        return (this.kind = STRING);
      }
      const kind = STARTS[c]!;
      if (kind === 0) {
        i++;
        continue;
      }
      this.end = kind === SCALAR ? scalarEnd(buf, i + 1) : i + 1;
      return (this.kind = kind);
    }
    this.start = this.end = n;
    this.kind = 0;
    return 0;
  }

  /**
   * Moves past the value whose first token is the current one: for an object or array, to just
   * past its closing bracket (`end`), without a token per member.
   */
  skipValue(): void {
    if (this.kind !== OPEN_OBJECT && this.kind !== OPEN_ARRAY) return;
    const buf = this.buf;
    const n = buf.length;
    let depth = 0;
    let i = this.start;
    while (i < n) {
      const b = buf[i]!;
      if (b === QUOTE) {
        i = stringEnd(buf, i);
        continue;
      }
      if (b === 0x7b || b === 0x5b) depth++;
      else if (b === 0x7d || b === 0x5d) {
        depth--;
        if (depth === 0) {
          i++;
          break;
        }
      }
      i++;
    }
    this.kind = buf[i - 1] === 0x7d ? CLOSE_OBJECT : CLOSE_ARRAY;
    this.end = i;
  }

  /** The decoded text of the current string token. */
  text(): string {
    return stringText(this.buf, this.start, this.end);
  }
}

/**
 * The token kind a byte starts; 0 for whitespace and for the colon, which no reader needs (a
 * member's value always follows its name). A table, so a token costs one load.
 */
const STARTS = new Uint8Array(256).fill(SCALAR);
STARTS[0x20] = STARTS[0x0a] = STARTS[0x0d] = STARTS[0x09] = STARTS[0x3a] = 0;
STARTS[QUOTE] = STRING;
STARTS[0x7b] = OPEN_OBJECT;
STARTS[0x7d] = CLOSE_OBJECT;
STARTS[0x5b] = OPEN_ARRAY;
STARTS[0x5d] = CLOSE_ARRAY;
STARTS[0x2c] = COMMA;

/** Index just past the closing quote of the string token opening at `start`. */
export function stringEnd(buf: Buffer, start: number): number {
  // Most tokens are short keys and values, where a byte loop beats a native call; long ones
  // (base64 payloads) switch to indexOf, which runs at memchr speed.
  const n = buf.length;
  const inlineLimit = Math.min(n, start + 48);
  let q = start + 1;
  for (; q < inlineLimit; q++) {
    const c = buf[q];
    if (c === QUOTE) return q + 1;
    if (c === BACKSLASH) q++;
  }
  q--; // resume the quote search at the first byte not yet looked at
  for (;;) {
    q = buf.indexOf(QUOTE, q + 1);
    if (q === -1) throw new SyntaxError(`JSON: unterminated string at byte ${start}`);
    // The quote is escaped only when preceded by an odd run of backslashes.
    let b = q - 1;
    while (buf[b] === BACKSLASH) b--;
    if ((q - 1 - b) % 2 === 0) return q + 1;
  }
}

/** Index of the delimiter that ends the scalar running from `i`, or the end of the bytes. */
function scalarEnd(buf: Buffer, i: number): number {
  const n = buf.length;
  while (i < n) {
    const c = buf[i]!;
    if (c === 0x2c || c === 0x7d || c === 0x5d || c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0x3a) return i;
    i++;
  }
  return i;
}

/** True when the bytes between `start` and `end` hold a backslash (an escape, in a string token). */
export function hasBackslash(buf: Buffer, start: number, end: number): boolean {
  // A byte loop for the short tokens keys are; a native search past that.
  if (end - start > 64) return buf.subarray(start, end).indexOf(BACKSLASH) !== -1;
  for (let k = start; k < end; k++) if (buf[k] === BACKSLASH) return true;
  return false;
}

/** The decoded text of the string token spanning `start`-`end` (quotes included). */
export function stringText(buf: Buffer, start: number, end: number): string {
  // Without a backslash the bytes between the quotes are the text; with one, JSON decodes it.
  return hasBackslash(buf, start, end) ? (JSON.parse(buf.toString('utf8', start, end)) as string) : buf.toString('utf8', start + 1, end - 1);
}
