/**
 * The whole application with its OpenAPI routes on a real socket, for the tests of the
 * document and reference page: a fresh SQLite store in a temporary directory, the in-memory
 * rate limiter and local document files, listening on 127.0.0.1 at a free port. (Record-level
 * tests use test-service.ts, which also runs on PostgreSQL.)
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalFileStore } from '../../src/files/local-file-store.js';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { MemoryRateLimiter } from '../../src/http/rate-limit.js';
import { openApiRoutes } from '../../src/http/routes/openapi.js';
import { buildServer } from '../../src/http/server.js';

/** A running test server and how to stop it. */
export interface TestServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** origin + base path: what a client is given. */
  baseUrl: string;
  basePath: string;
  store: SqliteStore;
  close(): Promise<void>;
}

/** Starts the application, with no records, under `basePath` (default `/v1`). */
export async function startTestServer(options: { basePath?: string } = {}): Promise<TestServer> {
  const basePath = options.basePath ?? '/v1';
  const dir = await mkdtemp(join(tmpdir(), 'compliance-read-http-'));
  const store = await openSqliteStore(join(dir, 'store.sqlite'));
  const limiter = new MemoryRateLimiter(1000, 1000);
  try {
    const localFiles = new LocalFileStore({
      dir: join(dir, 'files'),
      secret: await store.secret(),
      // The port is known only after listening; signed URLs are not what these tests follow.
      publicBaseUrl: 'http://127.0.0.1',
      basePath,
    });
    const app = await buildServer({
      store,
      limiter,
      files: localFiles,
      localFiles,
      logger: false,
      basePath,
      cacheControl: 'no-store',
      plugins: [openApiRoutes({ basePath, version: '0.0.0-test' })],
    });
    const origin = await app.listen({ host: '127.0.0.1', port: 0 });
    return {
      origin,
      baseUrl: origin + basePath,
      basePath,
      store,
      async close() {
        await app.close();
        await limiter.close();
        await store.close();
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    await store.close();
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
}
