/** Probes and metrics of the assembled service (startService on a SQLite file), over real HTTP. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type AddressInfo } from 'node:net';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.js';
import { importFiles } from '../../src/ingest/importer.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { alertLine } from '../support/records.js';
import { createApiKey } from '../../src/store/api-keys.js';
import { startService, type Service } from '../../src/app/service.js';

const ALERT = 'aa5c2a4e-3d1f-4a6b-9c8d-7e6f5a4b3c2d';
const dirs: string[] = [];
let key: string;
let db: string;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'crs-health-'));
  dirs.push(dir);
  db = join(dir, 'store.db');
  writeFileSync(join(dir, 'in.ndjson'), `${alertLine('proj-a', ALERT, '0b5c2a4e-3d1f-4a6b-9c8d-7e6f5a4b3c2d', 'e1e2d3c4-b5a6-4978-8a9b-0c1d2e3f4a5b')}\n`);
  const store = await openSqliteStore(db);
  await importFiles(store, [join(dir, 'in.ndjson')]);
  key = (await createApiKey(store, { project: 'proj-a' })).key;
  await store.close();
});
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Starts the whole service on the shared SQLite file with extra settings. */
async function start(env: Record<string, string> = {}): Promise<Service> {
  const config = loadConfig({}, { DATABASE_URL: db, HOST: '127.0.0.1', PORT: '0', ...env });
  return startService(config, { logger: false });
}

describe('health probes', () => {
  let svc: Service;
  beforeAll(async () => {
    svc = await start({ RATE_LIMIT_BURST: '1', RATE_LIMIT_PER_SECOND: '0.001' });
  });
  afterAll(async () => svc?.close());

  it('answers /healthz with 200 {"status":"ok"} without a key', async () => {
    const res = await fetch(`${svc.url}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
    expect(res.headers.get('x-request-id')).toBeTruthy();
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
  });

  it('answers /readyz with 200 {"status":"ready"} while the store answers', async () => {
    const res = await fetch(`${svc.url}/readyz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ready' });
  });

  it('never rate limits the probes, even with a spent budget', async () => {
    const read = await fetch(`${svc.url}/v1/alerts/${ALERT}`, { headers: { authorization: `Bearer ${key}` } });
    expect(read.status).toBe(200);
    expect((await fetch(`${svc.url}/v1/alerts/${ALERT}`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(429);
    for (let i = 0; i < 5; i++) {
      for (const probe of ['/healthz', '/readyz']) {
        const res = await fetch(`${svc.url}${probe}`);
        expect(res.status).toBe(200);
        expect(res.headers.get('ratelimit-limit')).toBeNull();
      }
    }
  });

  it('serves the probes only outside the base path', async () => {
    expect((await fetch(`${svc.url}/v1/healthz`)).status).toBe(404);
  });

  it('answers /readyz with 503 and the error body once the store is gone', async () => {
    const other = await start();
    try {
      await other.store.close();
      const res = await fetch(`${other.url}/readyz`);
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ message: expect.any(String), code: 'unavailable', issues: [] });
    } finally {
      await other.close();
    }
  });
});

describe('readiness while the store is down', () => {
  it('logs each failed /readyz as one warn line, never as a failed request with a stack', async () => {
    const lines: Record<string, unknown>[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
    const config = loadConfig({}, { DATABASE_URL: db, HOST: '127.0.0.1', PORT: '0' });
    const svc = await startService(config, { logger });
    try {
      await svc.store.close();
      for (let i = 0; i < 3; i++) {
        const res = await fetch(`${svc.url}/readyz`);
        expect(res.status).toBe(503);
        expect(res.headers.get('cache-control')).toBe('no-store');
        expect(await res.json()).toEqual({ message: 'the store is unavailable; retry later', code: 'unavailable', issues: [] });
      }
      expect(lines.filter((l) => l.msg === 'not ready: the store does not answer')).toHaveLength(3);
      expect(lines.filter((l) => l.msg === 'request failed')).toEqual([]);
      expect(JSON.stringify(lines)).not.toContain('"stack":"Error');
    } finally {
      await svc.close();
    }
  });
});

describe('a port already taken', () => {
  it('stops the start, naming METRICS_PORT, and leaves the main port closed', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const free = createServer();
    await new Promise<void>((resolve) => free.listen(0, '127.0.0.1', resolve));
    const mainPort = (free.address() as AddressInfo).port;
    await new Promise((resolve) => free.close(resolve));
    try {
      const metricsPort = (taken.address() as AddressInfo).port;
      await expect(start({ PORT: String(mainPort), METRICS_PORT: String(metricsPort) })).rejects.toThrow(/^HOST, METRICS_PORT: listen EADDRINUSE/);
      await expect(fetch(`http://127.0.0.1:${mainPort}/healthz`)).rejects.toThrow();
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});

describe('metrics exposure', () => {
  it('exposes no /metrics at all when neither METRICS_PORT nor METRICS_TOKEN is set', async () => {
    const svc = await start();
    try {
      expect(svc.metricsUrl).toBeUndefined();
      expect((await fetch(`${svc.url}/metrics`)).status).toBe(404);
      expect((await fetch(`${svc.url}/metrics`, { headers: { authorization: 'Bearer anything' } })).status).toBe(404);
    } finally {
      await svc.close();
    }
  });

  it('serves /metrics on the main port only with the bearer token', async () => {
    const svc = await start({ METRICS_TOKEN: 'scrape-token-1' });
    try {
      for (const authorization of [undefined, 'Bearer wrong', 'Bearer scrape-token-', 'scrape-token-1']) {
        const res = await fetch(`${svc.url}/metrics`, { headers: authorization === undefined ? {} : { authorization } });
        expect(res.status).toBe(401);
        expect(await res.json()).toEqual({ message: expect.any(String), code: 'unauthorized', issues: [] });
      }
      const res = await fetch(`${svc.url}/metrics`, { headers: { authorization: 'Bearer scrape-token-1' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(await res.text()).toContain('# TYPE crs_http_requests_total counter');
    } finally {
      await svc.close();
    }
  });

  it('serves /metrics on its own port when METRICS_PORT is set, and not on the main port', async () => {
    const svc = await start({ METRICS_PORT: '0', METRICS_TOKEN: 'scrape-token-2' });
    try {
      expect(svc.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect((await fetch(`${svc.metricsUrl}/metrics`)).status).toBe(200);
      expect((await fetch(`${svc.metricsUrl}/v1/alerts/${ALERT}`)).status).toBe(404);
      expect((await fetch(`${svc.url}/metrics`, { headers: { authorization: 'Bearer scrape-token-2' } })).status).toBe(404);
    } finally {
      await svc.close();
    }
    // The metrics listener is closed with the service.
    await expect(fetch(`${svc.metricsUrl}/metrics`)).rejects.toThrow();
  });

  it('counts requests by route pattern and status, never by raw URL, and times store calls', async () => {
    const svc = await start({ METRICS_PORT: '0' });
    try {
      const res = await fetch(`${svc.url}/v1/alerts/${ALERT}`, { headers: { authorization: `Bearer ${key}` } });
      expect(res.status).toBe(200);
      await fetch(`${svc.url}/no/such/${ALERT}`);
      const text = await (await fetch(`${svc.metricsUrl}/metrics`)).text();
      expect(text).toContain('crs_http_requests_total{route="/v1/alerts/:id",method="GET",status="200"} 1');
      expect(text).toContain('crs_http_requests_total{route="unmatched",method="GET",status="404"} 1');
      expect(text).toMatch(/crs_http_request_duration_seconds_count\{route="\/v1\/alerts\/:id",method="GET",status="200"\} 1/);
      expect(text).toMatch(/crs_store_query_duration_seconds_count\{operation="getAlert",outcome="ok"\} 1/);
      expect(text).not.toContain(ALERT);
      // The request counter is read from the histogram's counts: a second scrape does not add them again.
      await fetch(`${svc.url}/v1/alerts/${ALERT}`, { headers: { authorization: `Bearer ${key}` } });
      const again = await (await fetch(`${svc.metricsUrl}/metrics`)).text();
      expect(again).toContain('crs_http_requests_total{route="/v1/alerts/:id",method="GET",status="200"} 2');
    } finally {
      await svc.close();
    }
  });

  it('shows each counted outcome at 0 before its first count, so a rate over it sees the first one', async () => {
    const svc = await start({ METRICS_PORT: '0' });
    try {
      const text = await (await fetch(`${svc.metricsUrl}/metrics`)).text();
      for (const kind of ['company', 'alert']) for (const outcome of ['hit', 'miss', 'stale']) expect(text).toContain(`crs_answer_cache_total{kind="${kind}",outcome="${outcome}"} 0`);
      for (const list of ['alerts', 'companies', 'executions', 'alert-counts']) expect(text).toContain(`crs_list_page_cache_total{list="${list}",outcome="stale"} 0`);
      for (const reason of ['per_address', 'pipelined', 'stalled', 'slow_reader_budget']) expect(text).toContain(`crs_connections_cut_total{reason="${reason}"} 0`);
      for (const scope of ['catch_up', 'batch']) expect(text).toContain(`crs_access_log_index_failures_total{scope="${scope}"} 0`);
      expect(text).toContain('crs_rate_limit_rejections_total 0');
    } finally {
      await svc.close();
    }
  });

  it('counts reads by id served from a kept answer apart from those read afresh', async () => {
    const svc = await start({ METRICS_PORT: '0' });
    try {
      for (let i = 0; i < 3; i++) expect((await fetch(`${svc.url}/v1/alerts/${ALERT}`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
      const text = await (await fetch(`${svc.metricsUrl}/metrics`)).text();
      expect(text).toContain('crs_answer_cache_total{kind="alert",outcome="miss"} 1');
      expect(text).toContain('crs_answer_cache_total{kind="alert",outcome="hit"} 2');
    } finally {
      await svc.close();
    }
  });

  it('times a list page read from the store, not one the page cache answers', async () => {
    const svc = await start({ METRICS_PORT: '0' });
    try {
      for (let i = 0; i < 3; i++) expect((await fetch(`${svc.url}/v1/alerts?limit=5`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
      const text = await (await fetch(`${svc.metricsUrl}/metrics`)).text();
      expect(text).toContain('crs_list_page_cache_total{list="alerts",outcome="hit"} 2');
      expect(text).toMatch(/crs_store_query_duration_seconds_count\{operation="listAlerts",outcome="ok"\} 1\n/);
    } finally {
      await svc.close();
    }
  });

  it('counts rate limit rejections', async () => {
    const svc = await start({ METRICS_PORT: '0', RATE_LIMIT_BURST: '1', RATE_LIMIT_PER_SECOND: '0.001' });
    try {
      for (let i = 0; i < 3; i++) await fetch(`${svc.url}/v1/alerts/${ALERT}`, { headers: { authorization: `Bearer ${key}` } });
      const text = await (await fetch(`${svc.metricsUrl}/metrics`)).text();
      expect(text).toContain('crs_rate_limit_rejections_total 2');
    } finally {
      await svc.close();
    }
  });
});
