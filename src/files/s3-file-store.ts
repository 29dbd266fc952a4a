/**
 * Document files in an S3-compatible bucket (AWS S3, MinIO, R2, ...), handed out as SigV4
 * presigned GET URLs made by the AWS SDK presigner: no network call per URL once credentials
 * are known, and no hand-rolled signing code to keep correct.
 *
 * The presigner is async, so `signUrl` returns a Promise on first use of a document within an
 * expiry bucket and the cached string afterwards. The signing time is pinned to
 * `expiry - (ttl + bucket)`, always in the past, with X-Amz-Expires = ttl + bucket: the URL then
 * expires exactly at the rounded expiry the local store uses, is byte-identical within a bucket,
 * and never depends on S3 tolerating an X-Amz-Date in the future.
 *
 * Objects belong to a project: the object key is `<project segment>/<objectKey>` (see
 * projectSegment), so the project is part of the signed path and a URL for one project's
 * object cannot be turned into one for another's.
 */
import { DeleteObjectCommand, GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { LRUCache } from 'lru-cache';
import {
  isSafeObjectKey, projectSegment, resolveExpiryOptions, roundedExpiry, type FileDoc, type FileStore, type UrlExpiryOptions,
} from './file-store.js';
import { contentDisposition, safeContentType } from './download-headers.js';

export interface S3FileStoreOptions extends UrlExpiryOptions {
  bucket: string;
  /** Signing region (default `us-east-1`, which most S3-compatible servers accept). */
  region?: string | undefined;
  /** Endpoint of an S3-compatible server, e.g. `http://localhost:9000`; AWS when absent. */
  endpoint?: string | undefined;
  /** Bucket in the path rather than the host name (needed by most self-hosted servers). */
  forcePathStyle?: boolean | undefined;
  /** Static credentials; without them the SDK default chain is used (env, profile, IMDS). */
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string | undefined } | undefined;
  /** A ready client instead of the fields above (bucket and expiry options still apply). */
  client?: S3Client | undefined;
  /** Signed URLs kept per expiry bucket, least recently used dropped first (default 50 000). */
  maxCachedUrls?: number | undefined;
}

/** SigV4 query signatures are limited to seven days. */
const MAX_PRESIGN_SECONDS = 7 * 24 * 3600;

export class S3FileStore implements FileStore {
  readonly client: S3Client;
  private readonly bucket: string;
  private readonly ttlSeconds: number;
  private readonly bucketSeconds: number;
  // URLs only change when the expiry does, so the cache holds one expiry value's URLs.
  private cacheExpires = -1;
  private readonly cache: LRUCache<string, string | Promise<string>>;

  constructor(opts: S3FileStoreOptions) {
    if (opts.bucket === '') throw new RangeError('S3FileStore: bucket is required');
    ({ ttlSeconds: this.ttlSeconds, bucketSeconds: this.bucketSeconds } = resolveExpiryOptions(opts));
    if (this.ttlSeconds + this.bucketSeconds > MAX_PRESIGN_SECONDS) {
      throw new RangeError(`S3FileStore: ttlSeconds + bucketSeconds must not exceed ${MAX_PRESIGN_SECONDS}`);
    }
    this.bucket = opts.bucket;
    this.cache = new LRUCache({ max: opts.maxCachedUrls ?? 50_000 });
    this.client =
      opts.client ??
      new S3Client({
        region: opts.region ?? 'us-east-1',
        ...(opts.endpoint !== undefined ? { endpoint: opts.endpoint } : {}),
        forcePathStyle: opts.forcePathStyle ?? false,
        ...(opts.credentials !== undefined ? { credentials: opts.credentials } : {}),
        // Otherwise GET URLs carry x-amz-checksum-mode=ENABLED, which browsers do not need and
        // some S3-compatible servers reject.
        responseChecksumValidation: 'WHEN_REQUIRED',
        requestChecksumCalculation: 'WHEN_REQUIRED',
      });
  }

  /** Deletes the project's object; S3 answers a missing key as deleted too. */
  async remove(project: string, objectKey: string): Promise<void> {
    if (!isSafeObjectKey(objectKey)) throw new RangeError(`S3FileStore: unsafe objectKey ${JSON.stringify(objectKey)}`);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: s3ObjectKey(project, objectKey) }));
  }

  /** Unix seconds at which URLs signed at `now` (ms) expire. */
  expiresAt(now: number): number {
    return roundedExpiry(now, this.ttlSeconds, this.bucketSeconds);
  }

  /** A presigned GET URL: the cached string within an expiry bucket, else a Promise of it. */
  signUrl(doc: FileDoc, now: number): string | Promise<string> {
    // Readers check first; a key with `/` or `..` must never reach into another prefix.
    if (!isSafeObjectKey(doc.objectKey)) throw new RangeError(`S3FileStore: unsafe objectKey ${JSON.stringify(doc.objectKey)}`);
    const expires = this.expiresAt(now);
    if (expires !== this.cacheExpires) {
      this.cache.clear();
      this.cacheExpires = expires;
    }
    const cacheKey = JSON.stringify([doc.project, doc.objectKey, doc.filename ?? null, doc.mimetype ?? null]);
    const hit = this.cache.get(cacheKey);
    if (hit !== undefined) return hit;
    // The pending Promise is cached too, so concurrent reads at a bucket turn sign once.
    const cache = this.cache;
    const pending: Promise<string> = this.presign(doc, expires).then(
      (url) => {
        if (cache.get(cacheKey) === pending) cache.set(cacheKey, url);
        return url;
      },
      (err: unknown) => {
        if (cache.get(cacheKey) === pending) cache.delete(cacheKey); // let the next read retry
        throw err;
      },
    );
    cache.set(cacheKey, pending);
    return pending;
  }

  private presign(doc: FileDoc, expires: number): Promise<string> {
    const expiresIn = this.ttlSeconds + this.bucketSeconds;
    const command = new GetObjectCommand({
      Bucket: this.bucket,
      Key: s3ObjectKey(doc.project, doc.objectKey),
      ResponseContentType: safeContentType(doc.mimetype),
      ResponseContentDisposition: contentDisposition(doc.filename),
    });
    return getSignedUrl(this.client, command, { expiresIn, signingDate: new Date((expires - expiresIn) * 1000) });
  }
}

/** The bucket key of a project's document: `<project segment>/<objectKey>`; throws for a project that cannot hold files. */
export function s3ObjectKey(project: string, objectKey: string): string {
  const segment = projectSegment(project);
  if (segment === undefined) throw new RangeError(`S3FileStore: project ${JSON.stringify(project)} cannot hold files`);
  return `${segment}/${objectKey}`;
}
