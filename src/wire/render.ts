/**
 * Answers rendered from stored record bytes: a record, or a JSON array of them, as identity JSON
 * with its spliced values filled in, or as gzip laid end to end from the stored deflate pieces.
 */
import zlib from 'node:zlib';
import { deflatedPiece, gzipFromPieces, storedPiece, type GzipPiece } from './gzip-pieces.js';
import type { Splice } from './json-splices.js';
import type { ReadFields, RecordBytes } from './record-bytes.js';
import { gzipPieces, hasPieces, hasSplices, identityPieces, parseLayout, type ParsedLayout, type SpliceValue } from './record-layout.js';
import { redact, type View } from './redaction.js';

/** The encodings an answer is rendered in; any other is compressed from identity by the caller. */
export type WireEncoding = 'identity' | 'gzip';

/** One record, or the records of a page served as one JSON array. */
export type Answer = RecordBytes | readonly RecordBytes[];

/** The value served in place of a spliced document URL (a presigner may answer async). */
export type Signer = (splice: Splice) => string | Promise<string>;

/** An answer's bytes. */
export interface Rendered {
  bytes: Buffer;
  /** Length of the JSON the bytes stand for, spliced values included. */
  jsonLength: number;
  /** True when the bytes were compressed whole for this answer rather than laid out from stored pieces. */
  compressedNow: boolean;
  /** True when the bytes hold values signed for this answer (document URLs): they must not be served again. */
  signed: boolean;
}

const IDENTITY_FIELDS: ReadFields = Object.freeze({ body: 'always', layout: 'always' });
// A record stored with deflate pieces is answered from them alone; its JSON only where none are stored.
const GZIP_FIELDS: ReadFields = Object.freeze({ body: 'withoutDeflated', layout: 'always', deflated: 'always' });

/** What a read must fetch to render an answer in `encoding`; a redacted one is made from the plain bytes and layout in either. */
export function fieldsFor(encoding: WireEncoding, redacted = false): ReadFields {
  return encoding === 'gzip' && !redacted ? GZIP_FIELDS : IDENTITY_FIELDS;
}

/** True when a record's answers carry values signed per request. */
export function isSpliced(record: RecordBytes): boolean {
  return hasSplices(record.layout);
}

/**
 * True when a gzip answer is laid out from deflate pieces: a record's own, or a page with any
 * row stored with them (those rows were read without their JSON, so the page can only be gzip;
 * rows without are deflated now). A redacted answer (`view`) has pieces of its own where the stored
 * record had some (its layout says so; they were not fetched).
 */
export function hasStoredGzip(answer: Answer, view?: View): boolean {
  const has = view === undefined ? (r: RecordBytes) => r.deflated !== null : (r: RecordBytes) => hasPieces(r.layout);
  return isRecord(answer) ? has(answer) : answer.some(has);
}

/** The stored JSON length of an answer (spliced URLs differ a little in length). */
export function storedLength(answer: Answer): number {
  if (isRecord(answer)) return answer.body?.length ?? 0;
  let n = answer.length + 1;
  for (const r of answer) n += r.body?.length ?? 0;
  return n;
}

/**
 * Renders an answer in `encoding`, as `view` shows it (every field when undefined); a promise only
 * when the signer answered with one.
 */
export function render(answer: Answer, encoding: WireEncoding, sign?: Signer, view?: View): Rendered | Promise<Rendered> {
  let layouts: ParsedLayout[];
  if (view === undefined) {
    const records: readonly RecordBytes[] = isRecord(answer) ? [answer] : answer;
    // Only gzip answers use the stored pieces; the others need a layout only for its splices.
    layouts = records.map((r) => parseLayout(r.layout, encoding === 'gzip'));
  } else {
    const shown = isRecord(answer) ? [redact(answer, view, encoding === 'gzip')] : answer.map((r) => redact(r, view, encoding === 'gzip'));
    layouts = shown.map((r) => r.layout);
    answer = isRecord(answer) ? shown[0]!.record : shown.map((r) => r.record);
  }
  const resolved = resolveSplices(layouts, sign);
  const shown = answer;
  if (typeof resolved === 'function') return assemble(shown, layouts, encoding, resolved);
  return resolved.then((value) => assemble(shown, layouts, encoding, value));
}

function isRecord(answer: Answer): answer is RecordBytes {
  return !Array.isArray(answer);
}

const OPEN = Buffer.from('[');
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from(']');
const OPEN_PIECE = storedPiece(OPEN);
const COMMA_PIECE = storedPiece(COMMA);
const CLOSE_PIECE = storedPiece(CLOSE);

function assemble(answer: Answer, layouts: ParsedLayout[], encoding: WireEncoding, splice: SpliceValue): Rendered {
  const signed = splice !== NO_SPLICES;
  if (encoding === 'gzip' && hasStoredGzip(answer)) {
    const pieces = gzipOf(answer, layouts, splice);
    if (pieces !== null) return { bytes: Buffer.concat(gzipFromPieces(pieces)), jsonLength: rawLength(pieces), compressedNow: false, signed };
  }
  const body = joined(identityOf(answer, layouts, splice));
  if (encoding === 'identity') return { bytes: body, jsonLength: body.length, compressedNow: false, signed };
  return { bytes: zlib.gzipSync(body, { level: 1 }), jsonLength: body.length, compressedNow: true, signed };
}

/** The uncompressed length of the JSON that gzip pieces stand for. */
function rawLength(pieces: readonly GzipPiece[]): number {
  let n = 0;
  for (const p of pieces) n += p.length;
  return n;
}

/** One buffer of the pieces; a lone piece (a record with nothing spliced) is sent as stored, uncopied. */
function joined(pieces: Buffer[]): Buffer {
  return pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces);
}

const NO_SPLICES: SpliceValue = () => {
  throw new Error('a splice value was asked for a body without splices');
};

/** Signs every spliced value up front, so the byte assembly stays synchronous; a promise only when a signer answered with one. */
function resolveSplices(layouts: ParsedLayout[], sign: Signer | undefined): SpliceValue | Promise<SpliceValue> {
  if (layouts.every((layout) => layout.splices.length === 0)) return NO_SPLICES;
  const values = new Map<Splice, string>();
  const pending: Promise<void>[] = [];
  for (const layout of layouts) {
    for (const s of layout.splices) {
      if (sign === undefined) throw new Error('stored body has splices but no splice value was given');
      const v = sign(s);
      if (typeof v === 'string') values.set(s, v);
      else pending.push(v.then((url) => void values.set(s, url)));
    }
  }
  const value: SpliceValue = (s) => values.get(s)!;
  return pending.length === 0 ? value : Promise.all(pending).then(() => value);
}

function identityOf(answer: Answer, layouts: ParsedLayout[], splice: SpliceValue): Buffer[] {
  if (isRecord(answer)) return identityPieces(answer, layouts[0]!, splice);
  const out: Buffer[] = [OPEN];
  answer.forEach((record, i) => {
    if (i > 0) out.push(COMMA);
    out.push(...identityPieces(record, layouts[i]!, splice));
  });
  out.push(CLOSE);
  return out;
}

/** Gzip pieces from stored deflate pieces; null when a record has none it can be answered from. */
function gzipOf(answer: Answer, layouts: ParsedLayout[], splice: SpliceValue): GzipPiece[] | null {
  if (isRecord(answer)) return gzipPieces(answer, layouts[0]!, splice);
  const out: GzipPiece[] = [OPEN_PIECE];
  for (let i = 0; i < answer.length; i++) {
    const record = answer[i]!;
    let pieces = gzipPieces(record, layouts[i]!, splice);
    // A row stored without deflate pieces (GZIP_LEVEL changed between imports) among rows read without their JSON: deflated now.
    if (pieces === null && record.body !== null) pieces = identityPieces(record, layouts[i]!, splice).map((raw) => deflatedPiece(raw, 1));
    if (pieces === null) return null;
    if (i > 0) out.push(COMMA_PIECE);
    out.push(...pieces);
  }
  out.push(CLOSE_PIECE);
  return out;
}
