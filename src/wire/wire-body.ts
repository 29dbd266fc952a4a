/**
 * A stored record's wire layout: where per-request values are spliced in, and the record's
 * bytes pre-compressed as gzip pieces (one piece per static slice between splices).
 * Shaped once at import (`shapeBody`), read back on every response (`identityPieces`, `gzipPieces`).
 */
import zlib from 'node:zlib';
import { deflatePiece, storedPiece, type GzipPiece } from './gzip-pieces.js';
import { applySplices, findSplices, type DocumentPlace, type Splice } from './json-splices.js';
import { ownedConcat } from '../threads/owned-bytes.js';

/** The stored form of a body, as the store keeps it. */
export interface WireBody {
  /** Null when a read fetched only the gzip pieces (see BodyNeed in the store). */
  body: Buffer | null;
  wire: string | null;
  gz: Buffer | null;
}

/** Compact JSON layout: s = splices [start, end, objectKey, filename, mimetype]; p = pieces [gzOffset, gzLength, crc, rawLength]. */
interface Layout {
  s?: [number, number, string | null, string | null, string | null][];
  p?: [number, number, number, number][];
}

/** Decoded layout of a stored body. */
export interface ParsedLayout {
  splices: Splice[];
  pieces: { offset: number; length: number; crc: number; rawLength: number }[];
}

/** Options for shaping a body at import. */
export interface ShapeOptions {
  /** Where the record's documents are, whose `presignedUrl` values reads replace; null for none. */
  documents: DocumentPlace | null;
  /** zlib level for the stored gzip pieces; null stores none. */
  gzipLevel: number | null;
}

/** Computes the wire layout and gzip pieces of a record's bytes. */
export function shapeBody(body: Buffer, options: ShapeOptions): { wire: string | null; gz: Buffer | null } {
  const splices = options.documents === null ? [] : findSplices(body, options.documents);
  const layout: Layout = {};
  if (splices.length > 0) {
    layout.s = splices.map((s) => [s.start, s.end, s.objectKey ?? null, s.filename ?? null, s.mimetype ?? null]);
  }
  let gz: Buffer | null = null;
  if (options.gzipLevel !== null) {
    const parts: Buffer[] = [];
    layout.p = [];
    let offset = 0;
    let pos = 0;
    const bounds = [...splices.map((s) => [s.start, s.end] as const), [body.length, body.length] as const];
    for (const [start, end] of bounds) {
      const raw = body.subarray(pos, start);
      const deflated = deflatePiece(raw, options.gzipLevel);
      parts.push(deflated);
      layout.p.push([offset, deflated.length, zlib.crc32(raw), raw.length]);
      offset += deflated.length;
      pos = end;
    }
    // In memory of its own (Buffer.concat may use the shared pool), so an import worker can
    // transfer the bytes rather than copy them.
    gz = ownedConcat(parts);
  }
  return { wire: layout.s === undefined && layout.p === undefined ? null : JSON.stringify(layout), gz };
}

// Layouts read recently, by their text: hot records are served without parsing theirs again.
const recent = new Map<string, ParsedLayout>();
const NO_LAYOUT: ParsedLayout = { splices: [], pieces: [] };

/** True when a stored layout has splices: shapeBody writes `s` first, so its text then starts with it. */
export function hasSplices(wire: string | null): boolean {
  return wire !== null && wire.startsWith('{"s"');
}

/**
 * Decodes a stored layout (the result is shared: callers must not change it). Without `pieces`,
 * a layout without splices is not parsed at all: plain answers need only the splices.
 */
export function parseLayout(wire: string | null, pieces = true): ParsedLayout {
  if (wire === null || (!pieces && !hasSplices(wire))) return NO_LAYOUT;
  let parsed = recent.get(wire);
  if (parsed === undefined) {
    if (recent.size >= 10_000) recent.clear();
    parsed = decodeLayout(wire);
    recent.set(wire, parsed);
  }
  return parsed;
}

function decodeLayout(wire: string): ParsedLayout {
  const layout = JSON.parse(wire) as Layout;
  return {
    splices: (layout.s ?? []).map(([start, end, objectKey, filename, mimetype]) => ({
      start,
      end,
      objectKey: objectKey ?? undefined,
      filename: filename ?? undefined,
      mimetype: mimetype ?? undefined,
    })),
    pieces: (layout.p ?? []).map(([offset, length, crc, rawLength]) => ({ offset, length, crc, rawLength })),
  };
}

/** Signs one spliced document reference into the value served in its place. */
export type SpliceValue = (splice: Splice) => string;

/** The uncompressed response pieces of a stored body, with splices filled in. */
export function identityPieces(stored: WireBody, layout: ParsedLayout, value: SpliceValue): Buffer[] {
  if (stored.body === null) throw new Error('the record was read without its plain bytes');
  return layout.splices.length === 0 ? [stored.body] : applySplices(stored.body, layout.splices, value);
}

/** The gzip pieces of a stored body (deflated slices, stored blocks for spliced values), or null when none are stored. */
export function gzipPieces(stored: WireBody, layout: ParsedLayout, value: SpliceValue): GzipPiece[] | null {
  if (stored.gz === null || layout.pieces.length !== layout.splices.length + 1) return null;
  const gz = stored.gz;
  const out: GzipPiece[] = [];
  layout.pieces.forEach((p, i) => {
    out.push({ deflated: gz.subarray(p.offset, p.offset + p.length), crc: p.crc, length: p.rawLength });
    const splice = layout.splices[i];
    if (splice !== undefined) out.push(storedPiece(Buffer.from(JSON.stringify(value(splice)), 'utf8')));
  });
  return out;
}
