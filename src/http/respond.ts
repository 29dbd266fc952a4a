/** Sends an answer rendered from stored record bytes: ETag and 304, Vary, br per request (bounded), and the answer's cost. */
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { hasStoredGzip, render, storedLength, type Answer, type Rendered, type Signer, type WireEncoding } from '../wire/render.js';
import type { View } from '../wire/redaction.js';
import type { Encoding } from './accept.js';
import { answerCost, PER_REQUEST_COMPRESSION_MAX_BYTES } from './answer-cost.js';

const brotli = promisify(zlib.brotliCompress);
// Quality 1: a third of quality 4's CPU for an answer about 11 % larger (docs/operations.md).
const BROTLI_OPTIONS = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } };

/** Per-response settings. */
export interface SendOptions {
  /** The strong validator of the content, before encoding suffixes. */
  etag: string;
  cacheControl: string;
  /** Value served in place of each spliced document URL (the S3 presigner answers async). */
  splice?: Signer;
  /** Debits the key's rate budget for the answer's cost beyond the door's token; called only when there is some. */
  charge?: (tokens: number) => void;
  /** Renderings of this same answer (in this view) kept by the caller: used when there, filled when nothing in it is signed per request. */
  rendered?: Map<WireEncoding, Rendered>;
  /** The field classes the key is not shown; undefined when it sees every field. */
  view?: View | undefined;
  /** Told the answer as sent (200 only), to serve it again while its ETag holds (see AnswerCache). */
  keep?: (sent: SentAnswer) => void;
}

/** An answer's bytes as sent, with what its headers are made from. */
export interface SentAnswer {
  /** The ETag before the encoding suffix. */
  tag: string;
  encoding: Encoding;
  bytes: Buffer;
  jsonLength: number;
}

/** The stored bytes an answer in `encoding` is rendered from: br compresses identity. */
export function wireEncodingOf(encoding: Encoding): WireEncoding {
  return encoding === 'gzip' ? 'gzip' : 'identity';
}

/** The ETag header of content `tag` sent in `encoding`: one entity per encoding, as RFC 9110 asks. */
function encodedTag(tag: string, encoding: Encoding): string {
  return `"${encoding === 'identity' ? tag : `${tag}-${encoding === 'gzip' ? 'gz' : 'br'}`}"`;
}

/**
 * True when If-None-Match names this content in any of its encodings (weak comparison, as RFC 9110
 * requires for it): the same content under another encoding is as current.
 */
function notModified(request: FastifyRequest, etag: string): boolean {
  const header = request.headers['if-none-match'];
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  for (const raw of header.split(',')) {
    const tag = raw.trim().replace(/^W\//, '');
    if (tag === `"${etag}"` || tag === `"${etag}-gz"` || tag === `"${etag}-br"`) return true;
  }
  return false;
}

/**
 * What every answer rendered here varies by: its encoding, and the key that asked (its project and
 * view), so a cache a Cache-Control setting lets store it never hands it to another key.
 */
function varyOnKeyAndEncoding(reply: FastifyReply): void {
  varyOn(reply, 'Accept-Encoding');
  varyOn(reply, 'Authorization');
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

/**
 * Sends an answer in the encoding the route negotiated (`negotiated`, read with the fields it needs),
 * or 304 when the client already has it; charges what the answer cost beyond the door's token.
 */
export async function sendAnswer(request: FastifyRequest, reply: FastifyReply, answer: Answer, negotiated: Encoding, opts: SendOptions): Promise<void> {
  const items = Array.isArray(answer) ? answer.length : 1;
  const stored = negotiated === 'gzip' && hasStoredGzip(answer, opts.view);
  // Compression per request is bounded: a larger answer goes uncompressed (identity is always acceptable).
  const encoding: Encoding = negotiated === 'identity' || stored || storedLength(answer) <= PER_REQUEST_COMPRESSION_MAX_BYTES ? negotiated : 'identity';
  reply.header('etag', encodedTag(opts.etag, encoding)).header('cache-control', opts.cacheControl);
  varyOnKeyAndEncoding(reply);
  if (notModified(request, opts.etag)) {
    // No body is built, but the page's rows were read.
    charge(opts, 0, items, false);
    await reply.code(304).send();
    return;
  }
  const rendered = await renderOnce(answer, wireEncodingOf(encoding), opts);
  charge(opts, rendered.jsonLength, items, encoding === 'br' || rendered.compressedNow);
  const bytes = encoding === 'br' ? await brotli(rendered.bytes, BROTLI_OPTIONS) : rendered.bytes;
  opts.keep?.({ tag: opts.etag, encoding, bytes, jsonLength: rendered.jsonLength });
  await sendBytes(reply, encoding, bytes);
}

/** Sends an answer kept as it was sent before (the caller checked it is still current), or 304. */
export async function sendSent(request: FastifyRequest, reply: FastifyReply, sent: SentAnswer, opts: Pick<SendOptions, 'cacheControl' | 'charge'>): Promise<void> {
  reply.header('etag', encodedTag(sent.tag, sent.encoding)).header('cache-control', opts.cacheControl);
  varyOnKeyAndEncoding(reply);
  if (notModified(request, sent.tag)) {
    charge(opts, 0, 1, false);
    await reply.code(304).send();
    return;
  }
  charge(opts, sent.jsonLength, 1, false);
  await sendBytes(reply, sent.encoding, sent.bytes);
}

async function sendBytes(reply: FastifyReply, encoding: Encoding, bytes: Buffer): Promise<void> {
  reply.type('application/json; charset=utf-8');
  if (encoding !== 'identity') reply.header('content-encoding', encoding);
  await reply.send(bytes);
}

/** The answer's bytes in `wire`, from the caller's kept renderings when it has them; kept when no value in it is signed per request. */
async function renderOnce(answer: Answer, wire: WireEncoding, opts: SendOptions): Promise<Rendered> {
  const kept = opts.rendered?.get(wire);
  if (kept !== undefined) return kept;
  const rendering = render(answer, wire, opts.splice, opts.view);
  if (rendering instanceof Promise) return rendering;
  if (opts.rendered !== undefined && !rendering.signed) opts.rendered.set(wire, rendering);
  return rendering;
}

/** Debits what an answer costs beyond the token its request took at the door; nothing to do (no call) for a cheap one. */
function charge(opts: Pick<SendOptions, 'charge'>, jsonBytes: number, items: number, compressedPerRequest: boolean): void {
  const extra = answerCost(jsonBytes, items, compressedPerRequest) - 1;
  if (extra > 0) opts.charge?.(extra);
}
