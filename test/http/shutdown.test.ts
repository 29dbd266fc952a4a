/** Graceful shutdown: requests in flight finish, new connections are refused, the grace period bounds the wait. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalFileStore } from '../../src/files/local-file-store.js';
import { importFiles } from '../../src/ingest/importer.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { Store } from '../../src/store/store.js';
import { startServeProcess } from '../support/cli-process.js';
import { alertLine } from '../support/records.js';
import { createApiKey } from '../../src/store/api-keys.js';
import { MemoryRateLimiter } from '../../src/http/rate-limit.js';
import { buildServer } from '../../src/http/server.js';
import { closeGracefully } from '../../src/http/shutdown.js';
import { until } from '../support/until.js';

const ALERT = 'aa5c2a4e-3d1f-4a6b-9c8d-7e6f5a4b3c2d';
const LINE = alertLine('proj-a', ALERT, '0b5c2a4e-3d1f-4a6b-9c8d-7e6f5a4b3c2d', 'e1e2d3c4-b5a6-4978-8a9b-0c1d2e3f4a5b');
let dir: string;
let store: Store;
let key: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'crs-shutdown-'));
  writeFileSync(join(dir, 'in.ndjson'), `${LINE}\n`);
  store = await openSqliteStore(join(dir, 'store.db'));
  await importFiles(store, [join(dir, 'in.ndjson')]);
  key = (await createApiKey(store, { project: 'proj-a' })).key;
});
afterAll(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The store, except that getAlert takes `delayMs` longer; `started` counts the calls begun. */
function slowAlerts(delayMs: number): { store: Store; started: () => number } {
  let started = 0;
  const slow = new Proxy(store, {
    get(target, prop) {
      if (prop !== 'getAlert') return Reflect.get(target, prop, target);
      return async (project: string, k: string) => {
        started++;
        await new Promise((r) => setTimeout(r, delayMs));
        return target.getAlert(project, k);
      };
    },
  });
  return { store: slow, started: () => started };
}

async function serve(s: Store): Promise<{ app: FastifyInstance; url: string; port: number }> {
  const files = new LocalFileStore({ dir: join(dir, 'files'), secret: await store.secret(), publicBaseUrl: 'http://127.0.0.1', basePath: '/v1', ttlSeconds: 900 });
  const app = await buildServer({ store: s, limiter: new MemoryRateLimiter(1000, 1000), files, logger: false, basePath: '/v1', cacheControl: 'no-store' });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, url, port: Number(new URL(url).port) };
}

/** Resolves with the error code of a new TCP connection, or 'connected'. */
function tryConnect(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => (socket.destroy(), resolve('connected')));
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'error'));
  });
}

describe('graceful shutdown', () => {
  it('lets 20 requests in flight finish with 200 while refusing new connections', async () => {
    const slow = slowAlerts(500);
    const { app, url, port } = await serve(slow.store);
    const inFlight = Array.from({ length: 20 }, () =>
      fetch(`${url}/v1/alerts/${ALERT}`, { headers: { authorization: `Bearer ${key}` } }).then(async (r) => ({ status: r.status, body: (await r.json()) as { id?: string } })),
    );
    await until('20 requests started', () => slow.started() === 20, 10_000, 10);

    const closed = closeGracefully(app, 10_000);
    expect(await tryConnect(port)).toBe('ECONNREFUSED');

    const results = await Promise.all(inFlight);
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(results.every((r) => r.body.id === ALERT)).toBe(true);
    await closed;
  });

  it('finishes closing once the last response is sent, not after the keep-alive timeout', async () => {
    const slow = slowAlerts(300);
    const { app, url } = await serve(slow.store);
    const request = fetch(`${url}/v1/alerts/${ALERT}`, { headers: { authorization: `Bearer ${key}` } });
    await until('a request started', () => slow.started() === 1, 10_000, 10);
    const started = Date.now();
    await closeGracefully(app, 10_000);
    expect((await request).status).toBe(200);
    // The server's keep-alive timeout is 72 s by default; a drain that waited for it would be stuck.
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('cuts requests still running when the grace period ends', async () => {
    const slow = slowAlerts(60_000);
    const { app, url } = await serve(slow.store);
    const request = fetch(`${url}/v1/alerts/${ALERT}`, { headers: { authorization: `Bearer ${key}` } }).then(
      (r) => r.status,
      (err: Error) => err.name,
    );
    await until('a request started', () => slow.started() === 1, 10_000, 10);
    const started = Date.now();
    await closeGracefully(app, 200);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(await request).toBe('TypeError'); // fetch failed: the socket was closed without an answer
  });
});

describe('serve command', () => {
  it('exits 0 on SIGTERM', async () => {
    // The same SQLite file this suite's in-process servers use, so the key works here too.
    const svc = await startServeProcess({ DATABASE_URL: join(dir, 'store.db') });
    const res = await fetch(`${svc.url}/v1/alerts/${ALERT}`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    svc.child.kill('SIGTERM');
    expect(await svc.exited).toBe(0);
  });

  it('exits at once, 128 + 15, on a second SIGTERM during the drain', async () => {
    // Long limits: only the second signal can end the drain within the test's time.
    const svc = await startServeProcess({ DATABASE_URL: join(dir, 'store.db'), LOG_LEVEL: 'info', SHUTDOWN_GRACE_MS: '600000', REQUEST_TIMEOUT_MS: '600000' });
    // A request in flight: its headers promise a body that never comes, so the drain waits for it.
    const { port } = new URL(svc.url);
    const socket = connect(Number(port), '127.0.0.1');
    socket.on('error', () => {});
    socket.write(`POST /v1/customers/${ALERT}/erase HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{`);
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    await new Promise((r) => setTimeout(r, 300));
    svc.child.kill('SIGTERM');
    await until('the shutdown line', () => svc.output().includes('shutting down'), 10_000, 10);
    await new Promise((r) => setTimeout(r, 300));
    expect(svc.child.exitCode).toBeNull(); // still draining: the request in flight holds it
    svc.child.kill('SIGTERM');
    expect(await svc.exited).toBe(128 + 15);
    socket.destroy();
  });
});
