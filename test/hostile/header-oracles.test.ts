/**
 * What a key learns from answers' headers and the feed's etags, beyond the bodies it may read: a
 * kind of record it has no read scope for is named in the change feed by a keyed etag, never by the
 * plain hash of the record's bytes; a HEAD of a list page, whose Link's cursor carries the page's
 * last record id, is logged as naming that record; a request with two Authorization lines is no
 * one's, whichever key comes first; every read answer says it varies by Authorization, so a cache
 * a Cache-Control setting lets store it never serves it to another key.
 */
import { hash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessLogEntry } from '../../src/access-log/access-log.js';
import type { Scope } from '../../src/store/api-keys.js';
import { loggedEntries } from '../support/access-log-entries.js';
import { catchUp, feedSettled } from '../support/changes-feed.js';
import { rawRequest } from '../support/raw-http.js';
import { alertLine, companyLine, executionLine, individualLine } from '../support/records.js';
import { startTestService, type TestService } from '../support/test-service.js';

const A = 'proj-header-a';
const B = 'proj-header-b';
const COMPANY = '5e1c0a3d-0000-4000-8000-000000000001';
const OTHER_COMPANY = '5e1c0a3d-0000-4000-8000-000000000002';
const PERSON = '5e1c0a3d-0000-4000-8000-000000000003';
const ALERT = '5e1c0a3d-0000-4000-8000-0000000000a1';
const OTHER_ALERT = '5e1c0a3d-0000-4000-8000-0000000000a2';
const lines = [
  companyLine(A, COMPANY, '0b1e0000-0000-4000-8000-000000000001'),
  companyLine(A, OTHER_COMPANY, '0b1e0000-0000-4000-8000-000000000002'),
  individualLine(A, PERSON),
  alertLine(A, ALERT, COMPANY, '0b1e0000-0000-4000-8000-000000000003'),
  alertLine(A, OTHER_ALERT, OTHER_COMPANY, '0b1e0000-0000-4000-8000-000000000004'),
  ...[0, 1, 2].map((i) => executionLine(A, COMPANY, i)),
  companyLine(B, COMPANY, '0b1e0000-0000-4000-8000-000000000001'),
];
const DATA: Scope[] = ['pii:read', 'documents:read', 'screening:read'];

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService(lines);
  await feedSettled(svc.dbUrl);
});
afterAll(async () => svc?.close());

async function get(path: string, key: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${svc.url}${path}`, { ...init, headers: { authorization: `Bearer ${key}`, ...(init.headers as Record<string, string> | undefined) } });
}

/** Waits until the access log holds an entry with request id `requestId`, and answers it. */
async function logged(project: string, requestId: string): Promise<AccessLogEntry> {
  const entry = (await loggedEntries(svc.store, [project], [requestId])).get(requestId);
  if (entry === undefined) throw new Error(`no access log entry ${requestId}`);
  return entry;
}

describe('the change feed to a key without a kind’s read scope', () => {
  it('names no record by the plain hash of its bytes, only by the keyed etag of the view withholding every class', async () => {
    const full = (await svc.key(A)).key;
    const feedOnly = (await svc.key(A, { scopes: ['changes:read', ...DATA] })).key;
    const companiesToo = (await svc.key(A, { scopes: ['changes:read', 'companies:read', ...DATA] })).key;
    const plain = new Map((await catchUp(svc.url, '/v1/changes', full)).items.map((c) => [c.id, c.etag]));
    // Every kind is in the feed: companies, an individual, alerts, executions.
    expect(new Set(plain.keys())).toEqual(new Set([COMPANY, OTHER_COMPANY, PERSON, ALERT, OTHER_ALERT, 'exec-0000', 'exec-0001', 'exec-0002']));
    for (const item of (await catchUp(svc.url, '/v1/changes', feedOnly)).items) {
      expect(item.etag, item.id).not.toBe(plain.get(item.id));
      expect(item.etag, item.id).toMatch(/\.r\d+(v\d+)?$/);
    }
    // A key reading companies still gets their plain etag, and a keyed one of the rest.
    for (const item of (await catchUp(svc.url, '/v1/changes', companiesToo)).items) {
      if (item.kind === 'company' || item.kind === 'customer') expect(item.etag, item.id).toBe(plain.get(item.id));
      else expect(item.etag, item.id).not.toBe(plain.get(item.id));
    }
  });

  it('gives the etag a read by a key of that scope and no data scope answers', async () => {
    const feedOnly = (await svc.key(A, { scopes: ['changes:read', ...DATA] })).key;
    const bare = (await svc.key(A, { scopes: ['companies:read', 'alerts:read'] })).key;
    const feed = new Map((await catchUp(svc.url, '/v1/changes', feedOnly)).items.map((c) => [c.id, c.etag]));
    for (const path of [`/v1/companies/${COMPANY}/details`, `/v1/alerts/${ALERT}`]) {
      const res = await get(path, bare, { headers: { 'accept-encoding': 'identity' } });
      expect(res.status).toBe(200);
      // The read's ETag appends its signing period to the record's view etag.
      const tag = res.headers.get('etag')!.slice(1, -1);
      expect(tag.startsWith(`${feed.get(path.split('/')[3]!)!}.`), path).toBe(true);
    }
  });

  it('never matches a hash computed from the imported bytes', async () => {
    const feedOnly = (await svc.key(A, { scopes: ['changes:read', ...DATA] })).key;
    const hashes = new Set(
      lines.map((l) => {
        const start = l.indexOf('"record":') + '"record":'.length;
        // Each line's record is its last member: the bytes up to the envelope's closing brace.
        return hash('sha256', l.slice(start, -1), 'base64url').slice(0, 27);
      }),
    );
    const items = (await catchUp(svc.url, '/v1/changes', feedOnly)).items;
    expect(items.length).toBe(8);
    for (const item of items) expect(hashes.has(item.etag!), item.id).toBe(false);
  });
});

describe('a HEAD of a list page', () => {
  it('is logged as naming the record its Link’s cursor carries, and only that one', async () => {
    const key = (await svc.key(A)).key;
    const lists: [string, string][] = [
      ['alerts', '/v1/alerts?limit=1'],
      ['companies', '/v1/companies?limit=1'],
      ['executions', `/v1/customers/${COMPANY}/scenario-executions?limit=2`],
    ];
    for (const [name, path] of lists) {
      const got = await get(path, key);
      const ids = ((await got.json()) as { id?: string; execution_id?: string }[]).map((r) => r.id ?? r.execution_id!);
      const head = await get(path, key, { method: 'HEAD', headers: { 'x-request-id': `head-${name}` } });
      expect(head.status).toBe(200);
      const cursor = /cursor=([^.&>]+)/.exec(head.headers.get('link') ?? '')![1]!;
      const [, named] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [string, string];
      expect(named).toBe(ids.at(-1));
      const entry = await logged(A, `head-${name}`);
      expect(entry.records, name).toEqual([named]);
      // "Who saw record X" finds the HEAD.
      const byRecord = await svc.store.queryAccessLog({ project: A, recordId: named, limit: 10_000 });
      expect(byRecord.map((e) => e.requestId), name).toContain(`head-${name}`);
    }
  });

  it('names no record when there is no next page, nor for the change feed, whose cursor holds a position only', async () => {
    const key = (await svc.key(A)).key;
    expect((await get('/v1/alerts?limit=200', key, { method: 'HEAD', headers: { 'x-request-id': 'head-last-page' } })).status).toBe(200);
    expect((await get('/v1/changes?limit=1', key, { method: 'HEAD', headers: { 'x-request-id': 'head-feed' } })).status).toBe(200);
    expect(await logged(A, 'head-last-page')).not.toHaveProperty('records');
    expect(await logged(A, 'head-feed')).not.toHaveProperty('records');
  });
});

describe('two Authorization lines', () => {
  it('are refused 401 whichever key comes first, both valid or not, and the read is no project’s', async () => {
    const a = (await svc.key(A)).key;
    const b = (await svc.key(B)).key;
    const path = `/v1/companies/${COMPANY}/details`;
    for (const [n, [first, second]] of ([[a, b], [b, a], [a, a], ['junk', a], [a, 'junk']] as const).entries()) {
      const res = await rawRequest(svc.url, `GET ${path} HTTP/1.1\r\nAuthorization: Bearer ${first}\r\nAuthorization: Bearer ${second}\r\nX-Request-Id: two-keys-${n}`);
      expect(res.status, `${n}`).toBe(401);
      expect(JSON.parse(res.body)).toMatchObject({ code: 'unauthorized' });
      expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
    }
    // Each key alone still reads.
    expect((await get(path, a)).status).toBe(200);
    expect((await get(path, b)).status).toBe(200);
    for (const project of [A, B]) {
      const entries = await svc.store.queryAccessLog({ project, limit: 10_000 });
      expect(entries.filter((e) => e.requestId.startsWith('two-keys-'))).toEqual([]);
    }
  });

  it('refuses a key on a route answered before the door too: a 404 with two keys is unattributed', async () => {
    const a = (await svc.key(A)).key;
    const b = (await svc.key(B)).key;
    const res = await rawRequest(svc.url, `GET /v1/no-such-route HTTP/1.1\r\nAuthorization: Bearer ${a}\r\nAuthorization: Bearer ${b}\r\nX-Request-Id: two-keys-404`);
    expect(res.status).toBe(404);
    // Logged, and under neither project.
    await get('/v1/no-such-route', a, { headers: { 'x-request-id': 'one-key-404' } });
    await logged(A, 'one-key-404');
    for (const project of [A, B]) expect((await svc.store.queryAccessLog({ project, limit: 10_000 })).some((e) => e.requestId === 'two-keys-404')).toBe(false);
  });
});

describe('what a read answer varies by', () => {
  it('names Authorization beside Accept-Encoding on every read, 200 and 304, fresh or kept: the same URL answers each project its own', async () => {
    const a = (await svc.key(A)).key;
    const b = (await svc.key(B)).key;
    const vary = (res: Response): string[] => (res.headers.get('vary') ?? '').toLowerCase().split(/\s*,\s*/);
    const paths = [
      `/v1/companies/${COMPANY}/details`,
      `/v1/alerts/${ALERT}`,
      '/v1/alerts?limit=1',
      '/v1/alerts/counts',
      '/v1/companies',
      `/v1/customers/${COMPANY}/scenario-executions`,
      '/v1/changes',
    ];
    for (const path of paths) {
      // Twice: the second read of a record is the kept answer.
      for (const round of [1, 2]) {
        const ok = await get(path, a);
        await ok.arrayBuffer();
        expect(ok.status, path).toBe(200);
        expect(vary(ok), `${path} ${round}`).toEqual(expect.arrayContaining(['accept-encoding', 'authorization']));
        const again = await get(path, a, { headers: { 'if-none-match': ok.headers.get('etag')! } });
        expect(again.status, path).toBe(304);
        expect(vary(again), `${path} ${round}`).toEqual(expect.arrayContaining(['accept-encoding', 'authorization']));
      }
    }
    // One URL, two projects, two answers: nothing but the key tells them apart.
    const [ofA, ofB] = await Promise.all([a, b].map(async (k) => (await get('/v1/companies', k)).text()));
    expect(ofA).not.toBe(ofB);
  });
});
