/**
 * A pushed NDJSON body, decoded (gzip or identity) and counted as it arrives, written to a private
 * temporary file: only a body known to be within its limit is imported, so a body over it stores nothing.
 */
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { NDJSON_MEDIA_TYPES } from '../contract/operations.js';
import { ServiceError } from '../contract/error-codes.js';
import { headerLines } from './header-lines.js';

/** A body on disk, and how to remove it. */
export interface SpooledBody {
  file: string;
  bytes: number;
  remove(): Promise<void>;
}

/** The body is larger than the limit: answered 413, and the connection closed rather than the rest read. */
function tooLarge(maxBytes: number): ServiceError {
  return new ServiceError('payload_too_large', `the body is larger than ${maxBytes} bytes (MAX_IMPORT_BYTES, counted after gzip decoding); nothing of it was stored`, [], { connection: 'close' });
}

/** Checks the media type and encoding headers of a push; returns whether the body is gzip. */
export function bodyEncoding(request: IncomingMessage, maxBytes: number): 'gzip' | 'identity' {
  // Node keeps the first of two Content-Type lines; a proxy may have read the body by the other.
  if (headerLines(request.rawHeaders, 'content-type') > 1) {
    throw new ServiceError('unsupported_media_type', 'the body must have one Content-Type', [{ message: 'content-type: one line' }], { connection: 'close' });
  }
  const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (!(NDJSON_MEDIA_TYPES as readonly string[]).includes(type)) {
    throw new ServiceError('unsupported_media_type', `the body must be ${NDJSON_MEDIA_TYPES.join(' or ')}`, [{ message: 'content-type: one import envelope per line' }], {
      connection: 'close',
    });
  }
  const encoding = (request.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  if (encoding !== 'gzip' && encoding !== 'identity') {
    throw new ServiceError('unsupported_media_type', 'the body must be sent plain or with Content-Encoding: gzip', [{ message: 'content-encoding: gzip or identity' }], {
      connection: 'close',
    });
  }
  // Node's parser decodes only chunked framing: any other transfer coding would reach the import still coded.
  const transfer = request.headers['transfer-encoding'];
  if (transfer !== undefined && transfer.trim().toLowerCase() !== 'chunked') {
    throw new ServiceError('unsupported_media_type', 'the body must be sent with no transfer coding but chunked (compress it with Content-Encoding: gzip)', [{ message: 'transfer-encoding: chunked only' }], {
      connection: 'close',
    });
  }
  const length = Number(request.headers['content-length'] ?? NaN);
  // A plain body announced over the limit is refused before a byte of it is read.
  if (encoding === 'identity' && Number.isFinite(length) && length > maxBytes) throw tooLarge(maxBytes);
  return encoding;
}

/** Reads the whole body into a file of its own (mode 0600 in a 0700 directory), decoded, or throws 413 past `maxBytes`. */
export async function spoolBody(request: IncomingMessage, encoding: 'gzip' | 'identity', maxBytes: number): Promise<SpooledBody> {
  const dir = await mkdtemp(join(tmpdir(), 'crs-push-'));
  const remove = (): Promise<void> => rm(dir, { recursive: true, force: true });
  const file = join(dir, 'body.ndjson');
  let bytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback) {
      bytes += chunk.length;
      if (bytes > maxBytes) done(tooLarge(maxBytes));
      else done(null, chunk);
    },
  });
  try {
    const out = createWriteStream(file, { flags: 'wx', mode: 0o600 });
    if (encoding === 'gzip') await pipeline(request, createGunzip(), counter, out);
    else await pipeline(request, counter, out);
  } catch (err) {
    await remove();
    if (err instanceof ServiceError) throw err;
    const code = (err as NodeJS.ErrnoException).code ?? '';
    if (code.startsWith('Z_')) throw new ServiceError('invalid_request', 'the body is not valid gzip', [{ message: 'body: Content-Encoding says gzip, but it does not decode' }]);
    if (code === 'ECONNRESET' || code === 'ERR_STREAM_PREMATURE_CLOSE') throw new ServiceError('invalid_request', 'the body ended before it was complete', [{ message: 'body: the client closed the request early' }]);
    throw err;
  }
  return { file, bytes, remove };
}
