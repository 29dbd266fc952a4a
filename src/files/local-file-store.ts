/**
 * Document files kept in a local directory, one file per objectKey, served by the service
 * itself through HMAC-signed URLs (the S3 presigned URL idea without S3).
 *
 * The signature covers objectKey, expiry, filename and mimetype, so a URL can neither be
 * pointed at another file, extended, nor made to serve a different name or content type.
 * objectKeys are restricted to plain tokens and every resolved path is checked to lie inside
 * the store directory, so no URL, signed or not, can reach a file outside it.
 */
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { chmod, copyFile, mkdir, realpath, rename, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  resolveExpiryOptions, roundedExpiry, wellFormed, type FileDoc, type FileStore, type UrlExpiryOptions,
} from './file-store.js';

export interface LocalFileStoreOptions extends UrlExpiryOptions {
  /** Directory holding the files (see defaultFilesDir). */
  dir: string;
  /** HMAC key, at least 32 bytes; the caller generates and persists it. */
  secret: Buffer;
  /** Scheme and host the service is reached at, e.g. `https://compliance.example.com`. */
  publicBaseUrl: string;
  /** Path prefix the service is mounted under, e.g. `/v1` (default none). */
  basePath?: string | undefined;
}

/** Query and path values of a file request, as a router hands them over (unvalidated). */
export interface SignedFileRequest {
  objectKey: unknown;
  expires?: unknown;
  filename?: unknown;
  mimetype?: unknown;
  sig?: unknown;
}

export type VerifyResult =
  | { ok: true; path: string; filename: string | undefined; mimetype: string | undefined; size: number; expires: number }
  | { ok: false; reason: 'forbidden' | 'not_found' };

const SAFE_KEY = /^[A-Za-z0-9._-]{1,200}$/;
const SIG = /^[A-Za-z0-9_-]{43}$/; // base64url of a 32-byte HMAC-SHA256, unpadded
const EXPIRES = /^[0-9]{1,12}$/;
const MIN_SECRET_BYTES = 32;
const SIGNATURE_CONTEXT = 'compliance-read/local-file/v1';
const FORBIDDEN = { ok: false, reason: 'forbidden' } as const;
const NOT_FOUND = { ok: false, reason: 'not_found' } as const;

/** The default file directory under a data directory. */
export function defaultFilesDir(dataDir: string): string {
  return path.join(dataDir, 'files');
}

/** Whether an objectKey is a plain token usable as a file name (a uuid is). */
export function isSafeObjectKey(key: unknown): key is string {
  return typeof key === 'string' && SAFE_KEY.test(key) && key !== '.' && key !== '..';
}

export class LocalFileStore implements FileStore {
  readonly dir: string;
  private readonly secret: Buffer;
  private readonly urlPrefix: string;
  private readonly ttlSeconds: number;
  private readonly bucketSeconds: number;
  private realDir: Promise<string> | undefined;
  private cacheExpires = -1;
  private cache = new Map<string, string>();

  constructor(opts: LocalFileStoreOptions) {
    if (opts.secret.length < MIN_SECRET_BYTES) {
      throw new RangeError(`LocalFileStore: secret must be at least ${MIN_SECRET_BYTES} bytes`);
    }
    ({ ttlSeconds: this.ttlSeconds, bucketSeconds: this.bucketSeconds } = resolveExpiryOptions(opts));
    this.dir = path.resolve(opts.dir);
    this.secret = Buffer.from(opts.secret); // a private copy: the caller's buffer may be reused
    const base = opts.publicBaseUrl.replace(/\/+$/, '');
    const basePath = (opts.basePath ?? '').replace(/\/+$/, '');
    if (basePath !== '' && !basePath.startsWith('/')) {
      throw new RangeError(`LocalFileStore: basePath must start with '/', got ${JSON.stringify(opts.basePath)}`);
    }
    this.urlPrefix = `${base}${basePath}/files/`;
  }

  /** Copies a file into the store under objectKey, replacing any previous one atomically. */
  async put(objectKey: string, sourcePath: string): Promise<void> {
    await this.install(objectKey, (tmp) => copyFile(sourcePath, tmp));
  }

  /** Writes bytes into the store under objectKey, replacing any previous file atomically. */
  async putBytes(objectKey: string, bytes: Uint8Array | string): Promise<void> {
    await this.install(objectKey, (tmp) => writeFile(tmp, bytes));
  }

  /** Unix seconds at which URLs signed at `now` (ms) expire. */
  expiresAt(now: number): number {
    return roundedExpiry(now, this.ttlSeconds, this.bucketSeconds);
  }

  /** A signed download URL, identical for every call within one expiry bucket. */
  signUrl(doc: FileDoc, now: number): string {
    // Failing here, rather than emitting a URL the verifier will refuse, surfaces bad imports.
    if (!isSafeObjectKey(doc.objectKey)) {
      throw new RangeError(`LocalFileStore: unsafe objectKey ${JSON.stringify(doc.objectKey)}`);
    }
    const expiresAt = this.expiresAt(now);
    // A URL only changes with its expiry bucket, so each is signed once per bucket.
    if (expiresAt !== this.cacheExpires || this.cache.size >= 50_000) {
      this.cache.clear();
      this.cacheExpires = expiresAt;
    }
    const cacheKey = JSON.stringify([doc.objectKey, doc.filename ?? null, doc.mimetype ?? null]);
    const cached = this.cache.get(cacheKey);
    if (cached !== undefined) return cached;
    const expires = String(expiresAt);
    const filename = doc.filename === undefined ? undefined : wellFormed(doc.filename);
    const mimetype = doc.mimetype === undefined ? undefined : wellFormed(doc.mimetype);
    let url = `${this.urlPrefix}${encodeURIComponent(doc.objectKey)}?expires=${expires}`;
    if (filename !== undefined) url += `&filename=${encodeURIComponent(filename)}`;
    if (mimetype !== undefined) url += `&mimetype=${encodeURIComponent(mimetype)}`;
    const signed = `${url}&sig=${this.sign(doc.objectKey, expires, filename, mimetype)}`;
    this.cache.set(cacheKey, signed);
    return signed;
  }

  /** Checks a request's signature and expiry and finds its file; never leaves the directory. */
  async verify(req: SignedFileRequest, now: number): Promise<VerifyResult> {
    const { objectKey, expires, filename, mimetype, sig } = req;
    if (!isSafeObjectKey(objectKey)) return FORBIDDEN;
    if (typeof sig !== 'string' || !SIG.test(sig)) return FORBIDDEN;
    if (typeof expires !== 'string' || !EXPIRES.test(expires)) return FORBIDDEN;
    if (!isOptionalString(filename) || !isOptionalString(mimetype)) return FORBIDDEN;
    // Compare the canonical encodings: decoding sig first would accept variants of its last char.
    const expected = Buffer.from(this.sign(objectKey, expires, filename, mimetype), 'latin1');
    if (!timingSafeEqual(expected, Buffer.from(sig, 'latin1'))) return FORBIDDEN;
    if (Number(expires) * 1000 <= now) return FORBIDDEN;

    const file = await this.locate(objectKey);
    if (file === undefined) return NOT_FOUND;
    if (file === 'outside') return FORBIDDEN;
    return { ok: true, path: file.path, filename, mimetype, size: file.size, expires: Number(expires) };
  }

  private sign(objectKey: string, expires: string, filename: string | undefined, mimetype: string | undefined): string {
    // A JSON array is an unambiguous encoding: no separator games, and absent differs from ''.
    const message = JSON.stringify([SIGNATURE_CONTEXT, objectKey, expires, filename ?? null, mimetype ?? null]);
    return createHmac('sha256', this.secret).update(message, 'utf8').digest('base64url');
  }

  /** The file for a safe key, `undefined` when missing, 'outside' when a link leads out. */
  private async locate(objectKey: string): Promise<{ path: string; size: number } | undefined | 'outside'> {
    const candidate = path.resolve(this.dir, objectKey);
    if (!isInside(this.dir, candidate)) return 'outside';
    let real: string;
    let realDir: string;
    try {
      realDir = await this.resolveRealDir();
      // realpath follows links: a symlink planted in the directory must not serve its target.
      real = await realpath(candidate);
    } catch (err) {
      if (isMissing(err)) return undefined;
      throw err;
    }
    if (!isInside(realDir, real)) return 'outside';
    const st = await stat(real).catch((err: unknown) => (isMissing(err) ? undefined : Promise.reject(err)));
    if (st === undefined || !st.isFile()) return undefined;
    return { path: real, size: st.size };
  }

  private resolveRealDir(): Promise<string> {
    // Cached once found; a missing directory is retried, it may be created by a later put.
    this.realDir ??= realpath(this.dir).catch((err: unknown) => {
      this.realDir = undefined;
      throw err;
    });
    return this.realDir;
  }

  private async install(objectKey: string, write: (tmp: string) => Promise<void>): Promise<void> {
    if (!isSafeObjectKey(objectKey)) {
      throw new RangeError(
        `LocalFileStore: objectKey must be a uuid or 1-200 of [A-Za-z0-9._-] (not '.' or '..'), got ${JSON.stringify(objectKey)}`,
      );
    }
    // Documents are personal data: a directory this store creates, and every file, are its user's alone.
    if ((await mkdir(this.dir, { recursive: true, mode: 0o700 })) !== undefined) await chmod(this.dir, 0o700);
    const dest = path.join(this.dir, objectKey);
    // Write beside the target then rename, so a reader never sees a half-copied file.
    const tmp = path.join(this.dir, `.tmp-${randomUUID()}`);
    try {
      await write(tmp);
      // A copy keeps its source's mode, and a new file the umask's: set it before it is visible.
      await chmod(tmp, 0o600);
      await rename(tmp, dest);
    } catch (err) {
      await unlink(tmp).catch(() => undefined);
      throw err;
    }
  }
}

function isOptionalString(v: unknown): v is string | undefined {
  return v === undefined || typeof v === 'string';
}

/** Whether p is strictly below dir (both absolute and normalised). */
function isInside(dir: string, p: string): boolean {
  const rel = path.relative(dir, p);
  // `..foo` is a legal key, so only a `..` path segment means outside.
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel);
}

function isMissing(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
