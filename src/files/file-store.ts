/**
 * Document file stores: where the bytes of a document live and how a reader gets a URL for them.
 *
 * Files belong to a project: each store keeps them under the project (a directory, or a key
 * prefix) and signs the project with the objectKey, so a record, which is signed for with the
 * project of the key that read it, can only ever reach its own project's files.
 *
 * A record's `presignedUrl` is replaced on every read by a URL from the configured store. URLs
 * are cheap to make (no network call) and stable within an expiry bucket: the expiry is rounded
 * up to a bucket boundary, so every read inside one bucket yields byte-identical URLs and the
 * response can carry an ETag that only changes when the bucket does.
 */

/** The document fields a signed URL depends on. */
export interface FileDoc {
  /** The project the file belongs to: the project of the record being read, never of its bytes. */
  project: string;
  objectKey: string;
  filename?: string | undefined;
  mimetype?: string | undefined;
}

/**
 * A store able to sign a download URL for a document.
 *
 * `signUrl` may return a Promise: the AWS presigner is async although it makes no network call
 * once credentials are resolved. Callers should take a string result as is and await only a
 * Promise, so the local store (always synchronous) and cached S3 URLs cost no microtask.
 * `now` is milliseconds since the epoch (Date.now()).
 */
export interface FileStore {
  signUrl(doc: FileDoc, now: number): string | Promise<string>;
  /** Unix seconds at which URLs signed at `now` expire; usable in an ETag. */
  expiresAt(now: number): number;
  /** Deletes a project's file (an erased record's document); a file already gone is no failure. */
  remove(project: string, objectKey: string): Promise<void>;
}

/** How long signed URLs live, and the granularity their expiry is rounded up to. */
export interface UrlExpiryOptions {
  /** Minimum lifetime of a signed URL in seconds (default 900, i.e. 15 minutes). */
  ttlSeconds?: number | undefined;
  /** Expiry rounding bucket in seconds (default 60). */
  bucketSeconds?: number | undefined;
}

export const DEFAULT_TTL_SECONDS = 15 * 60;
export const DEFAULT_BUCKET_SECONDS = 60;

/** Expiry in unix seconds: now + ttl rounded up to a bucket, so it is the same within a bucket. */
export function roundedExpiry(
  nowMs: number,
  ttlSeconds: number = DEFAULT_TTL_SECONDS,
  bucketSeconds: number = DEFAULT_BUCKET_SECONDS,
): number {
  return Math.ceil((nowMs / 1000 + ttlSeconds) / bucketSeconds) * bucketSeconds;
}

/** Validated ttl and bucket with defaults applied; throws on non-positive or fractional values. */
export function resolveExpiryOptions(opts: UrlExpiryOptions): { ttlSeconds: number; bucketSeconds: number } {
  const ttlSeconds = opts.ttlSeconds ?? DEFAULT_TTL_SECONDS;
  const bucketSeconds = opts.bucketSeconds ?? DEFAULT_BUCKET_SECONDS;
  for (const [name, v] of [['ttlSeconds', ttlSeconds], ['bucketSeconds', bucketSeconds]] as const) {
    if (!Number.isSafeInteger(v) || v <= 0) {
      throw new RangeError(`${name} must be a positive whole number of seconds, got ${v}`);
    }
  }
  return { ttlSeconds, bucketSeconds };
}

const LONE_SURROGATE = /\p{Surrogate}/u;

/** The string with lone surrogates replaced by U+FFFD, so it can be percent-encoded and signed. */
export function wellFormed(s: string): string {
  // encodeURIComponent throws on lone surrogates, which JSON text may legally carry. With the u
  // flag a paired surrogate is one astral code point, so only lone halves match.
  return LONE_SURROGATE.test(s) ? Buffer.from(s, 'utf8').toString('utf8') : s;
}

const SAFE_KEY = /^[A-Za-z0-9._-]{1,200}$/;

/** Whether an objectKey is a plain token usable as a file name or key part (a uuid is). */
export function isSafeObjectKey(key: unknown): key is string {
  return typeof key === 'string' && SAFE_KEY.test(key) && key !== '.' && key !== '..';
}

const MAX_SEGMENT_BYTES = 200;
const PLAIN_SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

/**
 * The project as one path segment (a directory name, an S3 key prefix, a URL path segment):
 * letters, digits, `_`, `-` and non-leading `.` as they are, every other UTF-8 byte as `%XX`.
 * `%` is always encoded, so distinct projects give distinct segments, and none is `.`, `..`,
 * hidden or holds a `/`; decodeURIComponent gives the project back. Undefined for a project that
 * cannot have files: empty, `.` or `..` (URL dot segments even when encoded), not well-formed
 * UTF-16, or longer than 200 bytes encoded.
 */
export function projectSegment(project: string): string | undefined {
  if (PLAIN_SEGMENT.test(project)) return project.length <= MAX_SEGMENT_BYTES ? project : undefined;
  if (project === '' || project === '.' || project === '..' || LONE_SURROGATE.test(project)) return undefined;
  let out = '';
  for (const [i, ch] of [...project].entries()) {
    if (/^[A-Za-z0-9_-]$/.test(ch) || (ch === '.' && i > 0)) out += ch;
    else for (const b of Buffer.from(ch, 'utf8')) out += `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out.length <= MAX_SEGMENT_BYTES ? out : undefined;
}
