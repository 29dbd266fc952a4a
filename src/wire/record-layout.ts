/**
 * A record's layout: where per-request values are spliced into its JSON, the index of its
 * deflate pieces (one piece per static slice between splices), and the byte ranges of its
 * classified fields (src/wire/json-ranges.ts). Laid out once at import (`layoutRecord`), read
 * back for every answer (src/wire/render.ts).
 *
 * Stored text, version 1: the JSON array [1, flags, splices, pieces, ranges?, revision?], where
 * flags tell what the layout holds (SPLICED, PIECES, RANGES) so an answer can know it without
 * decoding the rest, and revision is the field list's the ranges were found with (absent: 1).
 * Version 0, the JSON object {s?: splices, p?: pieces}, is still read: its flags come from
 * decoding it. A layout without RANGES was written before fields were classified: a redacted
 * answer finds its ranges by scanning the record (src/wire/redaction.ts).
 */
import zlib from 'node:zlib';
import { LRUCache } from 'lru-cache';
import { deflatePiece, storedPiece, type GzipPiece } from './gzip-pieces.js';
import { applySplices, findSplices, type DocumentPlace, type Splice } from './json-splices.js';
import { ownedConcat } from '../threads/owned-bytes.js';
import { findRanges, holdsClassified, type ClassRange, type FieldPlace } from './json-ranges.js';
import type { RecordBytes } from './record-bytes.js';

/** A splice as stored: [start, end, objectKey, filename, mimetype]. */
type StoredSplice = [number, number, string | null, string | null, string | null];
/** A piece as stored: [offset in the deflated bytes, deflated length, crc32 of the raw bytes, raw length]. */
type StoredPiece = [number, number, number, number];
/** A classified field's value as stored: [start, end, class bit, mask index]. */
type StoredRange = [number, number, number, number];

const VERSION = 1;
/** Flag: the JSON has values spliced in per request. */
const SPLICED = 1;
/** Flag: deflate pieces are stored. */
const PIECES = 2;
/** Flag: the record's classified fields were found; their ranges (maybe none) are stored. */
const RANGES = 4;
const V1_HEAD = `[${VERSION},`;

/** Decoded layout of a stored record. */
export interface ParsedLayout {
  splices: Splice[];
  pieces: { offset: number; length: number; crc: number; rawLength: number }[];
  /** The ranges of the record's classified fields; undefined when the layout was written without them. */
  ranges: ClassRange[] | undefined;
  /** The revision of the field list the ranges were found with (FIELD_REVISIONS). */
  rangesRevision: number;
}

/** Options for laying out a record at import. */
export interface LayoutOptions {
  /** Where the record's documents are, whose `presignedUrl` values reads replace; null for none. */
  documents: DocumentPlace | null;
  /** zlib level for the stored deflate pieces; null stores none. */
  gzipLevel: number | null;
  /** Where the record's classified fields are (personal data, documents, screening); null for none. */
  fields?: FieldPlace | null;
  /** The revision of the field list `fields` comes from (FIELD_REVISIONS); 1 when not given. */
  fieldsRevision?: number;
  /** The record as parsed (member names unrepeated): when it holds nothing classified, its bytes are not scanned for ranges. */
  parsed?: unknown;
}

/** The layout and deflate pieces of a record's JSON. */
export function layoutRecord(body: Buffer, options: LayoutOptions): { layout: string | null; deflated: Buffer | null } {
  const splices = options.documents === null ? [] : findSplices(body, options.documents);
  const stored: StoredSplice[] = splices.map((s) => [s.start, s.end, s.objectKey ?? null, s.filename ?? null, s.mimetype ?? null]);
  const pieces: StoredPiece[] = [];
  let deflated: Buffer | null = null;
  if (options.gzipLevel !== null) {
    const laid = deflateBetweenSplices(body, splices, options.gzipLevel);
    for (const p of laid.pieces) pieces.push([p.offset, p.length, p.crc, p.rawLength]);
    deflated = laid.deflated;
  }
  const ranges: StoredRange[] | null = options.fields ? rangesOf(body, options.fields, options.parsed) : null;
  const flags = (stored.length > 0 ? SPLICED : 0) | (deflated !== null ? PIECES : 0) | (ranges !== null ? RANGES : 0);
  if (flags === 0) return { layout: null, deflated };
  const revision = options.fieldsRevision ?? 1;
  const layout = ranges === null ? [VERSION, flags, stored, pieces] : revision === 1 ? [VERSION, flags, stored, pieces, ranges] : [VERSION, flags, stored, pieces, ranges, revision];
  return { layout: JSON.stringify(layout), deflated };
}

/** The classified ranges to store; the parse, when given, spares the scan of a record with none. */
function rangesOf(body: Buffer, fields: FieldPlace, parsed: unknown): StoredRange[] {
  if (parsed !== undefined && !holdsClassified(parsed, fields)) return [];
  return findRanges(body, fields).map((r) => [r.start, r.end, r.bit, r.mask]);
}

/**
 * Raw deflate pieces of the slices of `body` between its splices (one more than the splices), laid
 * end to end in memory of its own (Buffer.concat may use the shared pool), so an import worker can
 * transfer the bytes rather than copy them.
 */
export function deflateBetweenSplices(body: Buffer, splices: readonly Splice[], level: number): { deflated: Buffer; pieces: ParsedLayout['pieces'] } {
  const parts: Buffer[] = [];
  const pieces: ParsedLayout['pieces'] = [];
  let offset = 0;
  let pos = 0;
  const bounds = [...splices.map((s) => [s.start, s.end] as const), [body.length, body.length] as const];
  for (const [start, end] of bounds) {
    const raw = body.subarray(pos, start);
    const piece = deflatePiece(raw, level);
    parts.push(piece);
    pieces.push({ offset, length: piece.length, crc: zlib.crc32(raw), rawLength: raw.length });
    offset += piece.length;
    pos = end;
  }
  return { deflated: ownedConcat(parts), pieces };
}

// Layouts read recently, by their text: hot records are served without parsing theirs again; the least recently read go first.
const recent = new LRUCache<string, ParsedLayout>({ max: 10_000 });
const NO_LAYOUT: ParsedLayout = { splices: [], pieces: [], ranges: undefined, rangesRevision: 1 };

/** The flags of a version 1 layout, read from its head; undefined for any other text. */
function flagsOf(layout: string): number | undefined {
  if (!layout.startsWith(V1_HEAD)) return undefined;
  let flags = 0;
  for (let i = V1_HEAD.length; i < layout.length; i++) {
    const digit = layout.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return layout.charCodeAt(i) === 44 && i > V1_HEAD.length ? flags : undefined;
    flags = flags * 10 + digit;
  }
  return undefined;
}

/** True when a record has values spliced in per request (its answers then change as its signed URLs roll over). */
export function hasSplices(layout: string | null): boolean {
  if (layout === null) return false;
  const flags = flagsOf(layout);
  return flags === undefined ? parseLayout(layout).splices.length > 0 : (flags & SPLICED) !== 0;
}

/** True when a record was stored with deflate pieces (read from the layout, so without fetching them). */
export function hasPieces(layout: string | null): boolean {
  if (layout === null) return false;
  const flags = flagsOf(layout);
  return flags === undefined ? parseLayout(layout).pieces.length > 0 : (flags & PIECES) !== 0;
}

/**
 * Decodes a stored layout (the result is shared: callers must not change it). Without `pieces`,
 * a layout flagged without splices is not decoded at all: plain answers need only the splices.
 */
export function parseLayout(layout: string | null, pieces = true): ParsedLayout {
  if (layout === null) return NO_LAYOUT;
  if (!pieces) {
    const flags = flagsOf(layout);
    if (flags !== undefined && (flags & SPLICED) === 0) return NO_LAYOUT;
  }
  let parsed = recent.get(layout);
  if (parsed === undefined) {
    parsed = decodeLayout(layout);
    recent.set(layout, parsed);
  }
  return parsed;
}

function decodeLayout(layout: string): ParsedLayout {
  const value = JSON.parse(layout) as [number, number, StoredSplice[], StoredPiece[], StoredRange[]?, number?] | { s?: StoredSplice[]; p?: StoredPiece[] };
  const [splices, pieces] = Array.isArray(value) ? [value[2], value[3]] : [value.s ?? [], value.p ?? []];
  const ranges = Array.isArray(value) && (value[1] & RANGES) !== 0 ? (value[4] ?? []) : undefined;
  return {
    splices: splices.map(([start, end, objectKey, filename, mimetype]) => ({
      start,
      end,
      objectKey: objectKey ?? undefined,
      filename: filename ?? undefined,
      mimetype: mimetype ?? undefined,
    })),
    pieces: pieces.map(([offset, length, crc, rawLength]) => ({ offset, length, crc, rawLength })),
    ranges: ranges?.map(([start, end, bit, mask]) => ({ start, end, bit, mask })),
    rangesRevision: (Array.isArray(value) ? value[5] : undefined) ?? 1,
  };
}

/** Signs one spliced document reference into the value served in its place. */
export type SpliceValue = (splice: Splice) => string;

/** The uncompressed pieces of a record's JSON, with splices filled in. */
export function identityPieces(record: RecordBytes, layout: ParsedLayout, value: SpliceValue): Buffer[] {
  if (record.body === null) throw new Error('the record was read without its plain bytes');
  return layout.splices.length === 0 ? [record.body] : applySplices(record.body, layout.splices, value);
}

/** The gzip pieces of a record (stored deflate pieces, stored blocks for spliced values), or null when none are stored. */
export function gzipPieces(record: RecordBytes, layout: ParsedLayout, value: SpliceValue): GzipPiece[] | null {
  if (record.deflated === null || layout.pieces.length !== layout.splices.length + 1) return null;
  const deflated = record.deflated;
  const out: GzipPiece[] = [];
  layout.pieces.forEach((p, i) => {
    out.push({ deflated: deflated.subarray(p.offset, p.offset + p.length), crc: p.crc, length: p.rawLength });
    const splice = layout.splices[i];
    if (splice !== undefined) out.push(storedPiece(Buffer.from(JSON.stringify(value(splice)), 'utf8')));
  });
  return out;
}
