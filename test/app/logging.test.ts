/** What the service's JSON log lines carry: the request id on every request line, never keys or record bodies. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.js';
import { importFiles } from '../../src/ingest/importer.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { companyLine } from '../support/records.js';
import { createApiKey } from '../../src/store/api-keys.js';
import { createLogger } from '../../src/app/logger.js';
import { startService, type Service } from '../../src/app/service.js';
import { SLOW_REQUEST_MS } from '../../src/http/request-log.js';

const COMPANY = '0b5c2a4e-3d1f-4a6b-9c8d-7e6f5a4b3c2d';
const COMPANY_NAME = 'Zyxwvut Confidential Holdings';
let dir: string;
let key: string;
const lines: string[] = [];
let svc: Service;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'crs-logging-'));
  const envelope = JSON.parse(companyLine('proj-a', COMPANY, 'f1e2d3c4-b5a6-4978-8a9b-0c1d2e3f4a5b')) as { record: Record<string, unknown> };
  envelope.record.companyClaims = [{ companyName: COMPANY_NAME }];
  writeFileSync(join(dir, 'in.ndjson'), `${JSON.stringify(envelope)}\n`);
  const store = await openSqliteStore(join(dir, 'store.db'));
  const summary = await importFiles(store, [join(dir, 'in.ndjson')]);
  expect(summary.rejected).toBe(0);
  key = (await createApiKey(store, { project: 'proj-a' })).key;
  await store.close();
  // The most talkative level: nothing below it may leak either.
  const config = loadConfig({}, { DATABASE_URL: join(dir, 'store.db'), HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'trace' });
  svc = await startService(config, { logger: createLogger(config, { write: (line: string) => void lines.push(line) }) });
});
afterAll(async () => {
  await svc?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Log lines written while `fn` ran, parsed. */
async function logsOf(fn: () => Promise<void>): Promise<{ text: string; records: Record<string, unknown>[] }> {
  const from = lines.length;
  await fn();
  await new Promise((r) => setTimeout(r, 50)); // the response can reach the client before "request completed" is logged
  const text = lines.slice(from).join('');
  return { text, records: lines.slice(from).map((l) => JSON.parse(l) as Record<string, unknown>) };
}

describe('service logs', () => {
  it('tag every line of a request with its request id, and never hold the key or the record body', async () => {
    let requestId = '';
    const { text, records } = await logsOf(async () => {
      const res = await fetch(`${svc.url}/v1/companies/${COMPANY}/details`, { headers: { authorization: `Bearer ${key}` } });
      expect(res.status).toBe(200);
      expect(await res.text()).toContain(COMPANY_NAME);
      requestId = res.headers.get('x-request-id')!;
    });
    expect(records.length).toBeGreaterThanOrEqual(2);
    for (const r of records) expect(r.reqId).toBe(requestId);
    expect(text).not.toContain(key);
    expect(text).not.toContain(key.slice(-12));
    expect(text).not.toContain(COMPANY_NAME);
  });

  it('keep the request id a caller sends, and leave out a refused key', async () => {
    const wrongKey = `${key.slice(0, -4)}abcd`;
    const { text, records } = await logsOf(async () => {
      const res = await fetch(`${svc.url}/v1/companies/${COMPANY}/details`, { headers: { authorization: `Bearer ${wrongKey}`, 'x-request-id': 'trace-me-42' } });
      expect(res.status).toBe(401);
    });
    expect(records.length).toBeGreaterThanOrEqual(2);
    for (const r of records) expect(r.reqId).toBe('trace-me-42');
    expect(text).not.toContain(wrongKey);
  });

  it('log a failing request with its id and without the key', async () => {
    const other = await startService(loadConfig({}, { DATABASE_URL: join(dir, 'store.db'), HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'trace' }), {
      logger: createLogger(loadConfig({}, { LOG_LEVEL: 'trace' }), { write: (line: string) => void lines.push(line) }),
    });
    try {
      await other.store.close(); // every store call now fails
      const { text, records } = await logsOf(async () => {
        const res = await fetch(`${other.url}/v1/companies/${COMPANY}/details`, { headers: { authorization: `Bearer ${key}` } });
        expect(res.status).toBeGreaterThanOrEqual(500);
      });
      // The outage is logged whole once, as the store's, not the request's; the request's answer in one short line with its id.
      expect(records.filter((r) => r.level === 50 && String(r.msg).startsWith('store unavailable'))).toHaveLength(1);
      expect(records.filter((r) => r.msg === 'answered 503: the store is unavailable').map((r) => typeof r.reqId)).toEqual(['string']);
      // The access log's background writer and the outage line belong to no request.
      const own = (r: Record<string, unknown>): boolean => !String(r.msg).startsWith('access log write failed') && !String(r.msg).startsWith('store unavailable');
      for (const r of records.filter(own)) expect(r.reqId).toEqual(expect.any(String));
      expect(text).not.toContain(key);
    } finally {
      await other.close();
    }
  });
});

describe('the request line at info', () => {
  it('is written for a refused request, with the request and its answer, and not for a read answered 200', async () => {
    const infoLines: string[] = [];
    const config = loadConfig({}, { DATABASE_URL: join(dir, 'store.db'), HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info' });
    const info = await startService(config, { logger: createLogger(config, { write: (line: string) => void infoLines.push(line) }) });
    try {
      const from = infoLines.length;
      const ok = await fetch(`${info.url}/v1/companies/${COMPANY}/details`, { headers: { authorization: `Bearer ${key}`, 'x-request-id': 'read-ok-1' } });
      expect(ok.status).toBe(200);
      await ok.arrayBuffer();
      const refused = await fetch(`${info.url}/v1/companies/${COMPANY}/details`, { headers: { 'x-request-id': 'refused-1' } });
      expect(refused.status).toBe(401);
      await refused.arrayBuffer();
      await new Promise((r) => setTimeout(r, 50)); // the line can follow the response
      const records = infoLines.slice(from).map((l) => JSON.parse(l) as { reqId?: string; msg?: string; req?: { method?: string; url?: string }; res?: { statusCode?: number } });
      expect(records.filter((r) => r.reqId === 'read-ok-1')).toEqual([]);
      const lines = records.filter((r) => r.reqId === 'refused-1' && r.msg === 'request completed');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({ req: { method: 'GET', url: `/v1/companies/${COMPANY}/details` }, res: { statusCode: 401 } });
    } finally {
      await info.close();
    }
  });

  it('is not written for a long poll of the feed that waited past the slow threshold for nothing', async () => {
    const infoLines: string[] = [];
    const config = loadConfig({}, { DATABASE_URL: join(dir, 'store.db'), HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info' });
    const info = await startService(config, { logger: createLogger(config, { write: (line: string) => void infoLines.push(line) }) });
    try {
      const headers = { authorization: `Bearer ${key}` };
      const first = await fetch(`${info.url}/v1/changes`, { headers });
      expect(first.status).toBe(200);
      await first.arrayBuffer();
      // The feed's end: polling from there waits the whole two seconds, then answers an empty page.
      const next = /<([^>]+)>/.exec(first.headers.get('link')!)![1]!;
      const from = infoLines.length;
      const started = performance.now();
      const polled = await fetch(`${info.url}${next}&wait=${Math.ceil((2 * SLOW_REQUEST_MS) / 1000)}`, { headers: { ...headers, 'x-request-id': 'poll-1' } });
      expect(polled.status).toBe(200);
      expect(await polled.json()).toEqual([]);
      expect(performance.now() - started).toBeGreaterThanOrEqual(SLOW_REQUEST_MS);
      await new Promise((r) => setTimeout(r, 50)); // the line can follow the response
      expect(infoLines.slice(from).filter((l) => l.includes('poll-1'))).toEqual([]);
    } finally {
      await info.close();
    }
  });
});
