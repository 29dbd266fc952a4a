/** /console over HTTP: the built files with their CSP and caching, client routes to index.html, and no store reads. */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalFileStore } from '../../src/files/local-file-store.js';
import { MemoryRateLimiter } from '../../src/http/rate-limit.js';
import { CONSOLE_CSP } from '../../src/http/routes/console.js';
import { buildServer } from '../../src/http/server.js';
import type { Store } from '../../src/store/store.js';
import { buildConsole } from '../support/console-build.js';
import { openTestStore, type TestStore } from '../support/store-harness.js';

let consoleDir: string;
let tmp: string;
let testStore: TestStore;
/** Store methods called since the server started listening. */
const storeCalls: string[] = [];
let listening = false;
let app: FastifyInstance;
let missing: FastifyInstance;
let origin: string;
let missingOrigin: string;

/** The real store, noting every method called on it once the server listens. */
function watched(store: Store): Store {
  return new Proxy(store, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (listening) storeCalls.push(String(name));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

async function serve(store: Store, dir: string, basePath = '/v1'): Promise<{ app: FastifyInstance; origin: string }> {
  const secret = await store.secret();
  const server = await buildServer({
    store,
    limiter: new MemoryRateLimiter(1000, 1000),
    files: new LocalFileStore({ dir: join(tmp, 'files'), secret, publicBaseUrl: 'http://127.0.0.1:9', basePath: '/v1', ttlSeconds: 60 }),
    logger: false,
    basePath,
    cacheControl: 'no-store',
    consoleDir: dir,
  });
  return { app: server, origin: await server.listen({ port: 0, host: '127.0.0.1' }) };
}

beforeAll(async () => {
  consoleDir = await buildConsole();
  tmp = mkdtempSync(join(tmpdir(), 'crs-console-http-'));
  testStore = await openTestStore(join(tmp, 'store'));
  ({ app, origin } = await serve(watched(testStore.store), consoleDir));
  ({ app: missing, origin: missingOrigin } = await serve(testStore.store, join(tmp, 'never-built')));
  listening = true;
});

afterAll(async () => {
  await app?.close();
  await missing?.close();
  await testStore?.store.close();
  await testStore?.cleanup();
  rmSync(consoleDir, { recursive: true, force: true });
  rmSync(tmp, { recursive: true, force: true });
});

describe('/console', () => {
  it('answers index.html with the strict CSP and no-cache, at /console and at any client route under it', async () => {
    const built = readFileSync(join(consoleDir, 'index.html'), 'utf8');
    const index = built.replace('<head>', '<head>\n    <meta name="compliance-api-base" content="/v1" />');
    expect(index).not.toBe(built);
    for (const path of ['/console', '/console/', '/console/alerts', '/console/alerts/0a1b2c3d-0000-4000-8000-000000000001', '/console/foo/bar?x=1']) {
      const res = await fetch(`${origin}${path}`);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type'), path).toBe('text/html; charset=utf-8');
      expect(res.headers.get('content-security-policy'), path).toBe(CONSOLE_CSP);
      expect(res.headers.get('cache-control'), path).toBe('no-cache');
      expect(await res.text(), path).toBe(index);
    }
  });

  it('answers a hashed asset with immutable caching and the CSP, and an unknown asset with 404', async () => {
    const script = readdirSync(join(consoleDir, 'assets')).find((n) => n.endsWith('.js'))!;
    const res = await fetch(`${origin}/console/assets/${script}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('content-security-policy')).toBe(CONSOLE_CSP);
    expect(Buffer.from(await res.arrayBuffer()).equals(readFileSync(join(consoleDir, 'assets', script)))).toBe(true);

    const again = await fetch(`${origin}/console/assets/${script}`, { headers: { 'if-none-match': res.headers.get('etag')! } });
    expect(again.status).toBe(304);

    // pdf.js's worker, a module file, comes as JavaScript: a browser refuses a module script of another type.
    const worker = readdirSync(join(consoleDir, 'assets')).find((n) => n.endsWith('.mjs'))!;
    expect(worker).toMatch(/^pdf\.worker/);
    expect((await fetch(`${origin}/console/assets/${worker}`)).headers.get('content-type')).toBe('text/javascript; charset=utf-8');

    const gone = await fetch(`${origin}/console/assets/index-nothere.js`);
    expect(gone.status).toBe(404);
    expect(((await gone.json()) as { code: string }).code).toBe('not_found');
  });

  it('puts no inline script or style in index.html (the CSP would refuse them)', () => {
    const index = readFileSync(join(consoleDir, 'index.html'), 'utf8');
    expect(index).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(index).not.toMatch(/<style|style=/);
  });

  it('refuses other methods with 405', async () => {
    const res = await fetch(`${origin}/console/alerts`, { method: 'POST' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
  });

  it('answers 404 with the error body, saying to build, when the console was not built', async () => {
    const res = await fetch(`${missingOrigin}/console/alerts`);
    expect(res.status).toBe(404);
    const body = (await res.json()) as { code: string; message: string };
    expect(body.code).toBe('not_found');
    expect(body.message).toContain('npm run build');
  });

  it('tells the page the API base path of the service serving it', async () => {
    const other = await serve(testStore.store, consoleDir, '/compliance/api');
    try {
      const html = await (await fetch(`${other.origin}/console/alerts`)).text();
      expect(html).toContain('<meta name="compliance-api-base" content="/compliance/api" />');
    } finally {
      await other.app.close();
    }
  });

  it('reads nothing from the store', async () => {
    storeCalls.length = 0;
    for (const path of ['/console', '/console/alerts', '/console/assets/none.js']) await (await fetch(`${origin}${path}`)).arrayBuffer();
    expect(storeCalls).toEqual([]);
    // The watch works: an API request does read the store.
    await (await fetch(`${origin}/v1/alerts`, { headers: { authorization: 'Bearer crs_aaaaaaaaaaaa_' + 'b'.repeat(43) } })).arrayBuffer();
    expect(storeCalls.length).toBeGreaterThan(0);
  });
});
