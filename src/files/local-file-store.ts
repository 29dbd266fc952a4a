/**
 * Document files kept in a local directory, one subdirectory per project and one file per
 * objectKey in it (`<dir>/<project segment>/<objectKey>`), served by the service itself through
 * HMAC-signed URLs (the S3 presigned URL idea without S3).
 *
 * The signature covers project, objectKey, expiry, filename and mimetype, so a URL can neither
 * be pointed at another file or another project's file, extended, nor made to serve a different
 * name or content type. objectKeys are restricted to plain tokens, projects to an encoded
 * segment (see projectSegment), and every resolved path is checked to lie inside the store
 * directory, so no URL, signed or not, can reach a file outside it. A file stored flat in the
 * directory by an older version is never served: `files adopt` moves it under its project.
 */
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { chmod, copyFile, lstat, mkdir, readdir, realpath, rename, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { LRUCache } from 'lru-cache';
import {
  isSafeObjectKey, projectSegment, resolveExpiryOptions, roundedExpiry, wellFormed, type FileDoc, type FileStore,
  type UrlExpiryOptions,
} from './file-store.js';

export { isSafeObjectKey } from './file-store.js';

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

/** Query and path values of a file request, as a router hands them over (unvalidated, path values decoded). */
export interface SignedFileRequest {
  project: unknown;
  objectKey: unknown;
  expires?: unknown;
  filename?: unknown;
  mimetype?: unknown;
  sig?: unknown;
}

export type VerifyResult =
  | { ok: true; path: string; filename: string | undefined; mimetype: string | undefined; size: number; expires: number }
  | { ok: false; reason: 'forbidden' | 'not_found' };

const SIG = /^[A-Za-z0-9_-]{43}$/; // base64url of a 32-byte HMAC-SHA256, unpadded
const EXPIRES = /^[0-9]{1,12}$/;
const MIN_SECRET_BYTES = 32;
// v2 signs the project: a URL signed before files belonged to projects never verifies.
const SIGNATURE_CONTEXT = 'compliance-read/local-file/v2';
const FORBIDDEN = { ok: false, reason: 'forbidden' } as const;
const NOT_FOUND = { ok: false, reason: 'not_found' } as const;

/** The default file directory under a data directory. */
export function defaultFilesDir(dataDir: string): string {
  return path.join(dataDir, 'files');
}

export class LocalFileStore implements FileStore {
  readonly dir: string;
  private readonly secret: Buffer;
  private readonly urlPrefix: string;
  private readonly ttlSeconds: number;
  private readonly bucketSeconds: number;
  private realDir: Promise<string> | undefined;
  // A URL only changes with its expiry bucket, so the cache holds one expiry value's URLs.
  private cacheExpires = -1;
  // Bounded by maxSize: `max` would allocate every slot when the service starts.
  private readonly cache = new LRUCache<string, string>({ maxSize: 50_000, sizeCalculation: () => 1 });

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

  /** Copies a file into the store under the project and objectKey, replacing any previous one atomically. */
  async put(project: string, objectKey: string, sourcePath: string): Promise<void> {
    await this.install(project, objectKey, (tmp) => copyFile(sourcePath, tmp));
  }

  /** Writes bytes into the store under the project and objectKey, replacing any previous file atomically. */
  async putBytes(project: string, objectKey: string, bytes: Uint8Array | string): Promise<void> {
    await this.install(project, objectKey, (tmp) => writeFile(tmp, bytes));
  }

  /**
   * Moves files stored flat in the directory (by versions before files belonged to projects)
   * under the project: the given objectKeys, or every flat file when `objectKeys` is undefined.
   * A key already stored under the project is left flat and reported, never overwritten.
   */
  async adopt(project: string, objectKeys?: readonly string[]): Promise<{ moved: string[]; skipped: string[] }> {
    const segment = this.segmentOf(project);
    const keys = objectKeys ?? (await this.flatFiles());
    const target = path.join(this.dir, segment);
    if ((await mkdir(target, { recursive: true, mode: 0o700 })) !== undefined) await chmod(target, 0o700);
    const moved: string[] = [];
    const skipped: string[] = [];
    for (const key of keys) {
      if (!isSafeObjectKey(key)) throw new RangeError(`LocalFileStore: unsafe objectKey ${JSON.stringify(key)}`);
      const from = path.join(this.dir, key);
      const to = path.join(target, key);
      const [src, dst] = await Promise.all([lstatOrUndefined(from), lstatOrUndefined(to)]);
      if (src === undefined || !src.isFile() || dst !== undefined) {
        skipped.push(key);
        continue;
      }
      await rename(from, to);
      moved.push(key);
    }
    return { moved, skipped };
  }

  /** Deletes the project's file; a missing one is already deleted, a path leading out of the directory is refused. */
  async remove(project: string, objectKey: string): Promise<void> {
    if (!isSafeObjectKey(objectKey)) throw new RangeError(`LocalFileStore: unsafe objectKey ${JSON.stringify(objectKey)}`);
    const file = path.resolve(this.dir, this.segmentOf(project), objectKey);
    if (!isInside(this.dir, file)) throw new RangeError('LocalFileStore: the file lies outside the store');
    // unlink removes a link planted in the directory, never what it points at.
    await unlink(file).catch((err: unknown) => (isMissing(err) ? undefined : Promise.reject(err)));
  }

  /** Unix seconds at which URLs signed at `now` (ms) expire. */
  expiresAt(now: number): number {
    return roundedExpiry(now, this.ttlSeconds, this.bucketSeconds);
  }

  /** A signed download URL, identical for every call within one expiry bucket. */
  signUrl(doc: FileDoc, now: number): string {
    // Failing here, rather than emitting a URL the verifier will refuse; readers check first.
    if (!isSafeObjectKey(doc.objectKey)) {
      throw new RangeError(`LocalFileStore: unsafe objectKey ${JSON.stringify(doc.objectKey)}`);
    }
    const expiresAt = this.expiresAt(now);
    if (expiresAt !== this.cacheExpires) {
      this.cache.clear();
      this.cacheExpires = expiresAt;
    }
    const cacheKey = JSON.stringify([doc.project, doc.objectKey, doc.filename ?? null, doc.mimetype ?? null]);
    const cached = this.cache.get(cacheKey);
    if (cached !== undefined) return cached;
    const segment = this.segmentOf(doc.project);
    const expires = String(expiresAt);
    const filename = doc.filename === undefined ? undefined : wellFormed(doc.filename);
    const mimetype = doc.mimetype === undefined ? undefined : wellFormed(doc.mimetype);
    let url = `${this.urlPrefix}${segment}/${doc.objectKey}?expires=${expires}`;
    if (filename !== undefined) url += `&filename=${encodeURIComponent(filename)}`;
    if (mimetype !== undefined) url += `&mimetype=${encodeURIComponent(mimetype)}`;
    const signed = `${url}&sig=${this.sign(doc.project, doc.objectKey, expires, filename, mimetype)}`;
    this.cache.set(cacheKey, signed);
    return signed;
  }

  /** Checks a request's signature and expiry and finds its file; never leaves the directory. */
  async verify(req: SignedFileRequest, now: number): Promise<VerifyResult> {
    const { project, objectKey, expires, filename, mimetype, sig } = req;
    if (typeof project !== 'string') return FORBIDDEN;
    const segment = projectSegment(project);
    if (segment === undefined || !isSafeObjectKey(objectKey)) return FORBIDDEN;
    if (typeof sig !== 'string' || !SIG.test(sig)) return FORBIDDEN;
    if (typeof expires !== 'string' || !EXPIRES.test(expires)) return FORBIDDEN;
    if (!isOptionalString(filename) || !isOptionalString(mimetype)) return FORBIDDEN;
    // Compare the canonical encodings: decoding sig first would accept variants of its last char.
    const expected = Buffer.from(this.sign(project, objectKey, expires, filename, mimetype), 'latin1');
    if (!timingSafeEqual(expected, Buffer.from(sig, 'latin1'))) return FORBIDDEN;
    if (Number(expires) * 1000 <= now) return FORBIDDEN;

    const file = await this.locate(segment, objectKey);
    if (file === undefined) return NOT_FOUND;
    if (file === 'outside') return FORBIDDEN;
    return { ok: true, path: file.path, filename, mimetype, size: file.size, expires: Number(expires) };
  }

  private sign(project: string, objectKey: string, expires: string, filename: string | undefined, mimetype: string | undefined): string {
    // A JSON array is an unambiguous encoding: no separator games, and absent differs from ''.
    const message = JSON.stringify([SIGNATURE_CONTEXT, project, objectKey, expires, filename ?? null, mimetype ?? null]);
    return createHmac('sha256', this.secret).update(message, 'utf8').digest('base64url');
  }

  /** The project's directory name; throws for a project that cannot have files. */
  private segmentOf(project: string): string {
    const segment = projectSegment(project);
    if (segment === undefined) throw new RangeError(`LocalFileStore: project ${JSON.stringify(project)} cannot hold files`);
    return segment;
  }

  /** Names of the regular files directly in the directory: what older versions stored flat. */
  private async flatFiles(): Promise<string[]> {
    const entries = await readdir(this.dir, { withFileTypes: true }).catch((err: unknown) => (isMissing(err) ? [] : Promise.reject(err)));
    return entries.filter((e) => e.isFile() && isSafeObjectKey(e.name) && !e.name.startsWith('.tmp-')).map((e) => e.name);
  }

  /** The file for a safe key of a project, `undefined` when missing, 'outside' when a link leads out. */
  private async locate(segment: string, objectKey: string): Promise<{ path: string; size: number } | undefined | 'outside'> {
    const candidate = path.resolve(this.dir, segment, objectKey);
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
    // Inside the project's own directory: a link to another project's file is refused too.
    if (!isInside(path.join(realDir, segment), real)) return 'outside';
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

  private async install(project: string, objectKey: string, write: (tmp: string) => Promise<void>): Promise<void> {
    if (!isSafeObjectKey(objectKey)) {
      throw new RangeError(
        `LocalFileStore: objectKey must be a uuid or 1-200 of [A-Za-z0-9._-] (not '.' or '..'), got ${JSON.stringify(objectKey)}`,
      );
    }
    // Documents are personal data: a directory this store creates, and every file, are its user's alone.
    if ((await mkdir(this.dir, { recursive: true, mode: 0o700 })) !== undefined) await chmod(this.dir, 0o700);
    const projectDir = path.join(this.dir, this.segmentOf(project));
    if ((await mkdir(projectDir, { recursive: true, mode: 0o700 })) !== undefined) await chmod(projectDir, 0o700);
    const dest = path.join(projectDir, objectKey);
    // Write beside the target then rename, so a reader never sees a half-copied file.
    const tmp = path.join(projectDir, `.tmp-${randomUUID()}`);
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

async function lstatOrUndefined(p: string): Promise<import('node:fs').Stats | undefined> {
  return lstat(p).catch((err: unknown) => (isMissing(err) ? undefined : Promise.reject(err)));
}

function isMissing(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
