/** A real service for tests: a SQLite file in a temp dir, real import, real keys, real HTTP on a free port. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { FileStore } from '../../src/files/file-store.js';
import { LocalFileStore } from '../../src/files/local-file-store.js';
import { S3FileStore } from '../../src/files/s3-file-store.js';
import { createApiKey, type Scope } from '../../src/store/api-keys.js';
import type { AccessLogWriterOptions } from '../../src/access-log/writer.js';
import { MemoryRateLimiter, type RateLimiter } from '../../src/http/rate-limit.js';
import type { ServerLimits } from '../../src/http/server-limits.js';
import { SETTINGS } from '../../src/config/settings.js';
import type { Logger } from 'pino';
import { buildServer } from '../../src/http/server.js';
import { withListPageCache } from '../../src/store/list-page-cache.js';
import { importFiles } from '../../src/ingest/importer.js';
import { ImportPool } from '../../src/ingest/import-pool.js';
import type { ImportSummary } from '../../src/ingest/import-summary.js';
import type { Store } from '../../src/store/store.js';
import { freePort } from './cli-process.js';
import { openTestStore } from './store-harness.js';

/** A running test service. */
export interface TestService {
  url: string;
  /** DATABASE_URL of the service's store, for child processes. */
  dbUrl: string;
  dir: string;
  store: Store;
  app: FastifyInstance;
  /** The local file store (the one serving URLs unless the service was started with `fileStore: 's3'`). */
  files: LocalFileStore;
  /** The store that signs the service's document URLs. */
  signer: FileStore;
  summary: ImportSummary;
  /** The worker threads preparing pushed lines (none with `pushWorkers: 0`). */
  ingestPool: ImportPool | undefined;
  key(project: string, opts?: { scopes?: Scope[]; expiresAt?: string }): Promise<{ key: string; id: string }>;
  close(): Promise<void>;
}

/** Imports `lines` into a fresh store and serves it. */
export async function startTestService(
  lines: string[],
  opts: {
    rateBurst?: number;
    ratePerSecond?: number;
    /** The key budgets themselves, e.g. shared through Redis; wins over rateBurst. */
    limiter?: RateLimiter;
    /** Budget of refused answers per client address (default: large enough never to matter). */
    refusedBurst?: number;
    refusedPerSecond?: number;
    /** The refusal budgets themselves, e.g. shared through Redis; wins over refusedBurst. */
    refusals?: RateLimiter;
    ttlSeconds?: number;
    corsOrigins?: string[];
    accessLog?: false | AccessLogWriterOptions;
    fileStore?: 'local' | 's3';
    /** The built console to serve at /console (none by default). */
    consoleDir?: string;
    /** Where the server logs (default: nowhere). */
    logger?: Logger;
    /** Limits of pushed records (POST /records); the settings' defaults when absent. */
    ingest?: { maxBytes: number; gzipLevel: number | null };
    /** Worker threads preparing pushed lines, as the service's PUSH_WORKERS (default 1; 0: the serving thread). */
    pushWorkers?: number;
    /** Socket limits, each absent one at its setting's default; none at all when absent. */
    limits?: Partial<ServerLimits>;
  } = {},
): Promise<TestService> {
  const dir = mkdtempSync(join(tmpdir(), 'crs-test-'));
  const input = join(dir, 'input.ndjson');
  writeFileSync(input, lines.join('\n') + '\n');
  const testStore = await openTestStore(dir);
  const store = testStore.store;
  const summary = await importFiles(store, [input]);
  const secret = await store.secret();
  const port = await freePort();
  const files = new LocalFileStore({ dir: join(dir, 'files'), secret, publicBaseUrl: `http://127.0.0.1:${port}`, basePath: '/v1', ttlSeconds: opts.ttlSeconds ?? 900 });
  // Port 9 (discard) on loopback: URLs are presigned offline, nothing is ever fetched from it.
  const signer: FileStore = opts.fileStore === 's3' ? testS3FileStore(opts.ttlSeconds) : files;
  const pushWorkers = opts.pushWorkers ?? SETTINGS.pushWorkers.default;
  const ingestPool = pushWorkers > 0 ? new ImportPool(pushWorkers, { idleMs: 5_000 }) : undefined;
  const app = await buildServer({
    // List pages through the page cache, as the assembled service serves them (src/app/service.ts).
    store: withListPageCache(store, 8 * 1024 * 1024),
    limiter: opts.limiter ?? new MemoryRateLimiter(opts.rateBurst ?? 100_000, opts.ratePerSecond ?? 100_000),
    refusals: opts.refusals ?? new MemoryRateLimiter(opts.refusedBurst ?? 100_000, opts.refusedPerSecond ?? 100_000),
    files: signer,
    localFiles: opts.fileStore === 's3' ? undefined : files,
    logger: opts.logger ?? false,
    basePath: '/v1',
    cacheControl: 'no-store',
    corsOrigins: opts.corsOrigins,
    accessLog: opts.accessLog,
    consoleDir: opts.consoleDir,
    ingest: { ...(opts.ingest ?? { maxBytes: SETTINGS.maxImportBytes.default, gzipLevel: SETTINGS.gzipLevel.default }), pool: ingestPool },
    limits: opts.limits && { ...defaultLimits(), ...opts.limits },
  });
  const url = await app.listen({ port, host: '127.0.0.1' });
  return {
    url,
    dbUrl: testStore.url,
    dir,
    store,
    app,
    files,
    signer,
    summary,
    ingestPool,
    async key(project, o = {}) {
      const { key, record } = await createApiKey(store, { project, scopes: o.scopes, expiresAt: o.expiresAt });
      return { key, id: record.id };
    },
    async close() {
      await app.close();
      await ingestPool?.close();
      await store.close();
      await testStore.cleanup();
    },
  };
}

/** The limits of the settings' defaults, as the assembled service builds them (src/app/service.ts). */
function defaultLimits(): ServerLimits {
  return {
    requestTimeout: SETTINGS.requestTimeout.default,
    headersTimeout: SETTINGS.headersTimeout.default,
    keepAliveTimeout: SETTINGS.keepAliveTimeout.default,
    maxHeaderBytes: SETTINGS.maxHeaderBytes.default,
    maxConnectionsPerAddress: SETTINGS.maxConnectionsPerAddress.default,
    writeStallTimeout: SETTINGS.writeStallTimeout.default,
    slowReaderBytes: SETTINGS.slowReaderMb.default * 1024 * 1024,
  };
}

/** The S3 store of `startTestService(…, { fileStore: 's3' })`: bucket `test-docs` on an endpoint nothing listens on. */
export function testS3FileStore(ttlSeconds = 900): S3FileStore {
  return new S3FileStore({
    bucket: 'test-docs', endpoint: 'http://127.0.0.1:9', forcePathStyle: true, region: 'us-east-1', ttlSeconds,
    credentials: { accessKeyId: 'AKIDTEST', secretAccessKey: 'test-secret-access-key-0123456789abcdef' },
  });
}
