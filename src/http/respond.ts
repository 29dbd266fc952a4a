/** Writes stored record bytes to the wire: ETag and 304, gzip from stored pieces, br on the fly (bounded), and the answer's cost. */
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { deflatedPiece, gzipFromPieces, storedPiece, type GzipPiece } from '../wire/gzip-pieces.js';
import type { Splice } from '../wire/json-splices.js';
import { gzipPieces, identityPieces, parseLayout, type ParsedLayout, type SpliceValue, type WireBody } from '../wire/wire-body.js';
import { pickEncoding, type Encoding } from './accept.js';
import { answerCost, PER_REQUEST_COMPRESSION_MAX_BYTES } from './answer-cost.js';

const brotli = promisify(zlib.brotliCompress);
// Quality 1: a third of quality 4's CPU for an answer about 11 % larger (docs/operations.md).
const BROTLI_OPTIONS = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } };

/** What a response is made of: either one stored record or a JSON array of them. */
export type Payload = { kind: 'record'; item: WireBody } | { kind: 'array'; items: readonly WireBody[] };

/** Per-response settings. */
export interface SendOptions {
  /** The strong validator of the content, before encoding suffixes. */
  etag: string;
  cacheControl: string;
  /** Value served in place of each spliced document URL (the S3 presigner answers async). */
  splice?: (splice: Splice) => string | Promise<string>;
  /** Debits the key's rate budget for the answer's cost beyond the door's token; called only when there is some. */
  charge?: (tokens: number) => void;
}

const OPEN = Buffer.from('[');
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from(']');
const OPEN_PIECE = storedPiece(OPEN);
const COMMA_PIECE = storedPiece(COMMA);
const CLOSE_PIECE = storedPiece(CLOSE);

/** True when If-None-Match names this content (weak comparison, as RFC 9110 requires for it). */
function notModified(request: FastifyRequest, etag: string): boolean {
  const header = request.headers['if-none-match'];
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  for (const raw of header.split(',')) {
    const tag = raw.trim().replace(/^W\//, '');
    if (tag === `"${etag}"` || tag.startsWith(`"${etag}-`)) return true;
  }
  return false;
}

/** Adds `field` to Vary, keeping what is there (CORS puts Origin in it before the route runs). */
export function varyOn(reply: FastifyReply, field: string): void {
  const current = reply.getHeader('vary');
  if (current === undefined || current === '') {
    reply.header('vary', field);
    return;
  }
  const text = Array.isArray(current) ? current.join(', ') : String(current);
  if (text !== '*' && !text.toLowerCase().includes(field.toLowerCase())) reply.header('vary', `${text}, ${field}`);
}

/** The parsed layout of each item, in the payload's order. */
type Layouts = ParsedLayout[];

/** Sends a payload with the encoding the client prefers, or 304 when it already has it; charges what the answer cost beyond the door's token. */
export async function sendPayload(request: FastifyRequest, reply: FastifyReply, payload: Payload, opts: SendOptions): Promise<void> {
  const items = payload.kind === 'record' ? 1 : payload.items.length;
  const negotiated: Encoding = pickEncoding(request.headers['accept-encoding']);
  const stored = negotiated === 'gzip' && gzipStored(payload);
  // Compression per request is bounded: a larger answer goes uncompressed (identity is always acceptable).
  const encoding: Encoding = negotiated === 'identity' || stored || plainLength(payload) <= PER_REQUEST_COMPRESSION_MAX_BYTES ? negotiated : 'identity';
  const tag = encoding === 'identity' ? opts.etag : `${opts.etag}-${encoding === 'gzip' ? 'gz' : 'br'}`;
  reply.header('etag', `"${tag}"`).header('cache-control', opts.cacheControl);
  varyOn(reply, 'Accept-Encoding');
  if (notModified(request, opts.etag)) {
    // No body is built, but the page's rows were read.
    charge(opts, 0, items, false);
    await reply.code(304).send();
    return;
  }
  reply.type('application/json; charset=utf-8');
  // Only gzip answers use the stored pieces; the others need a layout only for its splices.
  const needPieces = encoding === 'gzip';
  const layouts: Layouts =
    payload.kind === 'record' ? [parseLayout(payload.item.wire, needPieces)] : payload.items.map((item) => parseLayout(item.wire, needPieces));
  const resolved = resolveSplices(layouts, opts.splice);
  const splice = typeof resolved === 'function' ? resolved : await resolved;
  if (encoding === 'gzip') {
    const pieces = gzipOf(payload, layouts, splice);
    if (pieces !== null) {
      charge(opts, rawLength(pieces), items, false);
      await reply.header('content-encoding', 'gzip').send(Buffer.concat(gzipFromPieces(pieces)));
      return;
    }
  }
  const body = joined(identityOf(payload, layouts, splice));
  charge(opts, body.length, items, encoding !== 'identity');
  if (encoding === 'identity') {
    await reply.send(body);
    return;
  }
  if (encoding === 'gzip') {
    await reply.header('content-encoding', 'gzip').send(zlib.gzipSync(body, { level: 1 }));
    return;
  }
  await reply.header('content-encoding', 'br').send(await brotli(body, BROTLI_OPTIONS));
}

/** Debits what an answer costs beyond the token its request took at the door; nothing to do (no call) for a cheap one. */
function charge(opts: SendOptions, jsonBytes: number, items: number, compressedPerRequest: boolean): void {
  const extra = answerCost(jsonBytes, items, compressedPerRequest) - 1;
  if (extra > 0) opts.charge?.(extra);
}

/**
 * True when a gzip answer is built from stored gzip bytes: a record's own, or a page with any row
 * stored with them (those rows were read without their plain bytes, so the page can only be gzip;
 * rows without are deflated now).
 */
function gzipStored(payload: Payload): boolean {
  return payload.kind === 'record' ? payload.item.gz !== null : payload.items.some((item) => item.gz !== null);
}

/** The stored plain bytes of a payload (spliced URLs differ a little in length): what decides whether it is compressed per request. */
function plainLength(payload: Payload): number {
  if (payload.kind === 'record') return payload.item.body?.length ?? 0;
  let n = payload.items.length + 1;
  for (const item of payload.items) n += item.body?.length ?? 0;
  return n;
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

/** Signs every spliced value up front, so the byte assembly below stays synchronous; a promise only when a signer answered with one. */
function resolveSplices(layouts: Layouts, sign: SendOptions['splice']): SpliceValue | Promise<SpliceValue> {
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

function identityOf(payload: Payload, layouts: Layouts, splice: SpliceValue): Buffer[] {
  if (payload.kind === 'record') return identityPieces(payload.item, layouts[0]!, splice);
  const out: Buffer[] = [OPEN];
  payload.items.forEach((item, i) => {
    if (i > 0) out.push(COMMA);
    out.push(...identityPieces(item, layouts[i]!, splice));
  });
  out.push(CLOSE);
  return out;
}

/** Gzip pieces from stored deflate bytes; null when any item has none stored. */
function gzipOf(payload: Payload, layouts: Layouts, splice: SpliceValue): GzipPiece[] | null {
  if (payload.kind === 'record') return gzipPieces(payload.item, layouts[0]!, splice);
  const out: GzipPiece[] = [OPEN_PIECE];
  for (let i = 0; i < payload.items.length; i++) {
    const item = payload.items[i]!;
    let pieces = gzipPieces(item, layouts[i]!, splice);
    // A row stored without gzip bytes (GZIP_LEVEL changed between imports) among rows read without their plain bytes: deflated now.
    if (pieces === null && item.body !== null) pieces = identityPieces(item, layouts[i]!, splice).map((raw) => deflatedPiece(raw, 1));
    if (pieces === null) return null;
    if (i > 0) out.push(COMMA_PIECE);
    out.push(...pieces);
  }
  out.push(CLOSE_PIECE);
  return out;
}
