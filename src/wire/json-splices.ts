/**
 * Splice points in stored JSON bytes.
 *
 * Records are stored as the exact JSON bytes written at import, and a read writes those bytes
 * back. The one per-request value inside a record is a document's `presignedUrl`, so import
 * records where each such value sits (byte offsets of the string token) together with the
 * document fields needed to sign a fresh URL. A read then writes the static slices around the
 * offsets and a freshly encoded value in each gap: no parse, no re-serialisation.
 *
 * Only documents at the places the contract puts them count (`DocumentPlace`, compiled from
 * member paths by `documentPlaces`): a `presignedUrl` anywhere else, in an extra member, is
 * data like any other and is served as stored, never signed.
 *
 * The scanner is a single pass over the tokens (json-tokens) that only tracks object/array
 * nesting and member keys. JSON.parse is used only on the few short tokens whose decoded value
 * is needed.
 */
import { CLOSE_ARRAY, CLOSE_OBJECT, COMMA, JsonTokens, OPEN_ARRAY, OPEN_OBJECT, SCALAR, STRING, hasBackslash, stringText } from './json-tokens.js';

/** Where one `presignedUrl` string value sits, and the sibling fields needed to sign it. */
export interface Splice {
  /** Byte offset of the opening quote of the value token. */
  start: number;
  /** Byte offset just past the closing quote of the value token. */
  end: number;
  objectKey: string | undefined;
  filename: string | undefined;
  mimetype: string | undefined;
}

/**
 * A node of the tree of places where documents sit: the member names below it, every item of an
 * array below it, and whether an object here is a document. A node may refer back to itself.
 */
export interface DocumentPlace {
  members?: ReadonlyMap<string, DocumentPlace> | undefined;
  /** The place of every member whatever its name (when no `members` entry names it). */
  anyMember?: DocumentPlace | undefined;
  items?: DocumentPlace | undefined;
  document?: boolean | undefined;
}

/** One path from the record root to a document: member names, and `[]` for every item of an array. */
export type DocumentPath = readonly string[];

/** The place tree of some paths; the root is the record object itself. */
export function documentPlaces(paths: readonly DocumentPath[]): DocumentPlace {
  interface Mutable { members?: Map<string, Mutable>; items?: Mutable; document?: boolean }
  const root: Mutable = {};
  for (const p of paths) {
    let node = root;
    for (const step of p) {
      if (step === '[]') node = node.items ??= {};
      else {
        node.members ??= new Map();
        let next = node.members.get(step);
        if (next === undefined) node.members.set(step, (next = {}));
        node = next;
      }
    }
    node.document = true;
  }
  return root;
}

const KEY_OTHER = 0;
const KEY_URL = 1;
const KEY_OBJECT_KEY = 2;
const KEY_FILENAME = 3;
const KEY_MIMETYPE = 4;

const INTERESTING_KEYS: ReadonlyMap<string, number> = new Map([
  ['presignedUrl', KEY_URL],
  ['objectKey', KEY_OBJECT_KEY],
  ['filename', KEY_FILENAME],
  ['mimetype', KEY_MIMETYPE],
]);
const KEY_PRESIGNED_URL = Buffer.from('"presignedUrl"');
const KEY_OBJECT_KEY_BYTES = Buffer.from('"objectKey"');
const KEY_FILENAME_BYTES = Buffer.from('"filename"');
const KEY_MIMETYPE_BYTES = Buffer.from('"mimetype"');
const MARKER = Buffer.from('presignedUrl');
// The only JSON escape that can spell a letter is \uXXXX, so a key can only decode to
// "presignedUrl" without containing it literally if the text holds a `\u`.
const UNICODE_ESCAPE = Buffer.from('\\u');

/**
 * Nesting level. Document objects collect the fields of interest; objects on the way to a
 * document follow their member names; everything else only needs to be matched.
 */
class Frame {
  expectKey = true;
  key = KEY_OTHER;
  /** The place of the current member's value (objects), or of every item (arrays). */
  child: DocumentPlace | undefined;
  urls: number[] | undefined = undefined;
  objectKey: string | undefined = undefined;
  filename: string | undefined = undefined;
  mimetype: string | undefined = undefined;
  readonly isDocument: boolean;
  readonly follows: boolean;
  constructor(readonly isObject: boolean, readonly place: DocumentPlace) {
    this.isDocument = isObject && place.document === true;
    this.follows = isObject && (place.members !== undefined || place.anyMember !== undefined);
    this.child = isObject ? undefined : place.items;
  }
}

/**
 * Byte offsets of every `presignedUrl` string value of a document at one of `places` in one
 * JSON text, with its sibling fields.
 */
export function findSplices(json: string | Buffer, places: DocumentPlace): Splice[] {
  const buf = typeof json === 'string' ? Buffer.from(json, 'utf8') : json;
  if (buf.indexOf(MARKER) === -1 && buf.indexOf(UNICODE_ESCAPE) === -1) return [];
  return scan(buf, places);
}

function scan(buf: Buffer, places: DocumentPlace): Splice[] {
  const out: Splice[] = [];
  const stack: Frame[] = [];
  let top: Frame | undefined;
  const t = new JsonTokens(buf);
  for (let kind = t.next(); kind !== 0; kind = t.next()) {
    switch (kind) {
      case STRING:
        if (top !== undefined && top.isObject && top.expectKey) {
          if (top.isDocument) top.key = classifyKey(buf, t.start, t.end);
          if (top.follows) top.child = memberPlace(top.place, buf, t.start, t.end);
          top.expectKey = false;
        } else if (top !== undefined && top.key !== KEY_OTHER) {
          takeString(top, buf, t.start, t.end);
        }
        break;
      case OPEN_OBJECT:
      case OPEN_ARRAY: {
        if (top !== undefined && top.isObject) clearNonString(top);
        const place = top === undefined ? places : top.child;
        // No document lies below: pass the whole value by its brackets, not token by token.
        if (place === undefined) {
          t.skipValue();
          break;
        }
        if (top !== undefined) stack.push(top);
        top = new Frame(kind === OPEN_OBJECT, place);
        break;
      }
      case CLOSE_OBJECT:
      case CLOSE_ARRAY:
        if (top === undefined || top.isObject !== (kind === CLOSE_OBJECT)) {
          throw new SyntaxError(`findSplices: unbalanced '${String.fromCharCode(buf[t.start]!)}' at byte ${t.start}`);
        }
        if (top.urls !== undefined) emit(top, out);
        top = stack.pop();
        break;
      case COMMA:
        if (top !== undefined && top.isObject) {
          top.expectKey = true;
          top.key = KEY_OTHER;
          top.child = undefined;
        }
        break;
      case SCALAR:
        // number, true, false or null: a non-string value for the current member
        if (top !== undefined && top.isObject) clearNonString(top);
        break;
    }
  }
  if (top !== undefined) throw new SyntaxError('findSplices: unterminated object or array');
  // Objects close inside-out, so a nested document can be emitted before its parent's URL.
  if (out.length > 1) out.sort((a, b) => a.start - b.start);
  return out;
}

function classifyKey(buf: Buffer, start: number, end: number): number {
  const len = end - start;
  // Dispatch on length first: most keys differ in length from all four and cost one compare.
  if (len === 14) return sameBytes(buf, start, KEY_PRESIGNED_URL) ? KEY_URL : KEY_OTHER;
  if (len === 11) return sameBytes(buf, start, KEY_OBJECT_KEY_BYTES) ? KEY_OBJECT_KEY : KEY_OTHER;
  if (len === 10) {
    if (sameBytes(buf, start, KEY_FILENAME_BYTES)) return KEY_FILENAME;
    return sameBytes(buf, start, KEY_MIMETYPE_BYTES) ? KEY_MIMETYPE : KEY_OTHER;
  }
  // An escaped spelling of any of the four is at least 15 bytes; without a backslash it is not one.
  if (len < 15 || !hasBackslash(buf, start, end)) return KEY_OTHER;
  return INTERESTING_KEYS.get(stringText(buf, start, end)) ?? KEY_OTHER;
}

/** The place of the member whose key token spans start-end, or undefined when it leads to no document. */
function memberPlace(place: DocumentPlace, buf: Buffer, start: number, end: number): DocumentPlace | undefined {
  if (place.members === undefined) return place.anyMember;
  return place.members.get(stringText(buf, start, end)) ?? place.anyMember;
}

// A byte loop beats Buffer#compare here: keys are short and the native call costs more.
function sameBytes(buf: Buffer, at: number, pattern: Uint8Array): boolean {
  for (let k = 0; k < pattern.length; k++) if (buf[at + k] !== pattern[k]) return false;
  return true;
}

function takeString(top: Frame, buf: Buffer, start: number, end: number): void {
  switch (top.key) {
    case KEY_URL:
      // Every occurrence is replaced, so a duplicate key cannot leak a stale stored URL.
      (top.urls ??= []).push(start, end);
      break;
    case KEY_OBJECT_KEY:
      top.objectKey = stringText(buf, start, end);
      break;
    case KEY_FILENAME:
      top.filename = stringText(buf, start, end);
      break;
    case KEY_MIMETYPE:
      top.mimetype = stringText(buf, start, end);
      break;
  }
}

/** A later non-string value overrides an earlier string, as JSON.parse keeps the last member. */
function clearNonString(top: Frame): void {
  if (top.key === KEY_OBJECT_KEY) top.objectKey = undefined;
  else if (top.key === KEY_FILENAME) top.filename = undefined;
  else if (top.key === KEY_MIMETYPE) top.mimetype = undefined;
}

function emit(top: Frame, out: Splice[]): void {
  const urls = top.urls!;
  for (let k = 0; k < urls.length; k += 2) {
    out.push({
      start: urls[k]!,
      end: urls[k + 1]!,
      objectKey: top.objectKey,
      filename: top.filename,
      mimetype: top.mimetype,
    });
  }
}

/** Pieces of `body` with each splice's value token replaced by `JSON.stringify(valueFor(s))`. */
export function applySplices(
  body: Buffer,
  splices: readonly Splice[],
  valueFor: (s: Splice) => string,
): Buffer[] {
  const pieces: Buffer[] = [];
  let pos = 0;
  for (const s of splices) {
    if (s.start < pos || s.end < s.start || s.end > body.length) {
      throw new RangeError(`applySplices: splice ${s.start}-${s.end} out of order or bounds`);
    }
    if (s.start > pos) pieces.push(body.subarray(pos, s.start));
    pieces.push(Buffer.from(JSON.stringify(valueFor(s)), 'utf8'));
    pos = s.end;
  }
  if (pos < body.length) pieces.push(body.subarray(pos));
  return pieces;
}

/** The stored bytes between splices: always `splices.length + 1` segments, some maybe empty. */
export function staticSegments(body: Buffer, splices: readonly Splice[]): Buffer[] {
  // Kept even when empty so segment k always precedes value k: an import can deflate each
  // segment once and interleave stored-block values at request time by index.
  const segments: Buffer[] = [];
  let pos = 0;
  for (const s of splices) {
    if (s.start < pos || s.end < s.start || s.end > body.length) {
      throw new RangeError(`staticSegments: splice ${s.start}-${s.end} out of order or bounds`);
    }
    segments.push(body.subarray(pos, s.start));
    pos = s.end;
  }
  segments.push(body.subarray(pos));
  return segments;
}
