/** POST /v1/records through the real service: the scope, the body checks, project binding, rejects, idempotence, the size limit, concurrent pushers. */
import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientError, createClient } from '../../src/client/client.js';
import type { ImportResult } from '../../src/contract/import-result.js';
import { recordKey } from '../../src/contract/record-key.js';
import { catchUp, feedSettled } from '../support/changes-feed.js';
import { holdWrites, type HeldWrites } from '../support/held-writes.js';
import { versionedEnvelopes, versionProblems } from '../support/ingest-records.js';
import { companyLine, executionLine } from '../support/records.js';
import { startTestService, type TestService } from '../support/test-service.js';

const A = 'push-http-a';
const B = 'push-http-b';
const C1 = 'c1a5e000-3d1f-4a6b-9c8d-7e6f5a4b3c2d';
const C2 = 'c2a5e000-3d1f-4a6b-9c8d-7e6f5a4b3c2d';
const C3 = 'c3a5e000-3d1f-4a6b-9c8d-7e6f5a4b3c2d';
const DOC = 'd0c5e000-3d1f-4a6b-9c8d-7e6f5a4b3c2d';
let svc: TestService;
let small: TestService;
let writeA: string;
let readA: string;
let readB: string;
let writeSmall: string;

beforeAll(async () => {
  svc = await startTestService([]);
  writeA = (await svc.key(A, { scopes: ['records:write'] })).key;
  readA = (await svc.key(A)).key;
  readB = (await svc.key(B)).key;
  small = await startTestService([], { ingest: { maxBytes: 4096, gzipLevel: null } });
  writeSmall = (await small.key(A, { scopes: ['records:write'] })).key;
});
afterAll(async () => {
  await svc?.close();
  await small?.close();
});

const push = (base: string, key: string, body: string | Uint8Array<ArrayBuffer>, headers: Record<string, string> = {}): Promise<Response> =>
  fetch(`${base}/v1/records`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, accept: 'application/json', 'content-type': 'application/x-ndjson', ...headers },
    body,
  });
const get = (path: string, key: string): Promise<Response> => fetch(`${svc.url}${path}`, { headers: { authorization: `Bearer ${key}` } });

describe('push records over HTTP', () => {
  it('refuses a key without records:write with the contract error body, and stores nothing', async () => {
    const r = await push(svc.url, readA, companyLine(A, C1, DOC) + '\n');
    expect(r.status).toBe(403);
    expect(await r.json()).toEqual({ code: 'forbidden', message: 'the API key lacks the records:write scope', issues: [] });
    expect((await get(`/v1/companies/${C1}/details`, readA)).status).toBe(404);
  });

  it('refuses another media type or encoding (415) and a body that is not gzip (400), storing nothing', async () => {
    const line = companyLine(A, C1, DOC) + '\n';
    const json = await push(svc.url, writeA, line, { 'content-type': 'application/json' });
    expect(json.status).toBe(415);
    expect(await json.json()).toMatchObject({ code: 'unsupported_media_type' });
    const br = await push(svc.url, writeA, line, { 'content-encoding': 'br' });
    expect(br.status).toBe(415);
    const notGzip = await push(svc.url, writeA, line, { 'content-encoding': 'gzip' });
    expect(notGzip.status).toBe(400);
    expect(await notGzip.json()).toMatchObject({ code: 'invalid_request', message: 'the body is not valid gzip' });
    expect((await get(`/v1/companies/${C1}/details`, readA)).status).toBe(404);
  });

  /** A push written on a socket as it is given: header lines fetch would merge or refuse. Resolves to the whole answer. */
  const rawPush = (headers: string[], body: Buffer): Promise<string> => {
    const { hostname, port } = new URL(svc.url);
    return new Promise<string>((resolve, reject) => {
      const socket = connect({ host: hostname, port: Number(port) });
      const chunks: Buffer[] = [];
      socket.on('data', (c: Buffer) => chunks.push(c));
      socket.on('error', reject);
      socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
      const head = [`POST /v1/records HTTP/1.1`, `Host: ${hostname}:${port}`, `Authorization: Bearer ${writeA}`, ...headers, 'Connection: close'];
      socket.end(Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`), body]));
    });
  };

  it('refuses a transfer coding other than chunked (415), storing nothing', async () => {
    const body = gzipSync(companyLine(A, C1, DOC) + '\n');
    const chunked = Buffer.concat([Buffer.from(`${body.length.toString(16)}\r\n`), body, Buffer.from('\r\n0\r\n\r\n')]);
    const answer = await rawPush(['Content-Type: application/x-ndjson', 'Transfer-Encoding: gzip, chunked'], chunked);
    expect(answer).toMatch(/^HTTP\/1\.1 415 /);
    expect(answer).toContain('"code":"unsupported_media_type"');
    expect((await get(`/v1/companies/${C1}/details`, readA)).status).toBe(404);
  });

  it('refuses a push with two Content-Type lines (415), storing nothing', async () => {
    const body = Buffer.from(companyLine(A, C1, DOC) + '\n');
    for (const types of [['application/x-ndjson', 'application/x-ndjson'], ['application/x-ndjson', 'text/plain'], ['text/plain', 'application/x-ndjson']]) {
      const answer = await rawPush([...types.map((t) => `Content-Type: ${t}`), `Content-Length: ${body.length}`], body);
      expect(answer).toMatch(/^HTTP\/1\.1 415 /);
      expect(answer).toContain('"message":"the body must have one Content-Type"');
    }
    expect((await get(`/v1/companies/${C1}/details`, readA)).status).toBe(404);
  });

  it("stores the valid lines of the key's project and lists every other line with its line number and JSON Pointer", async () => {
    const body = [
      companyLine(A, C1, DOC),
      '{"kind":"customer","record":',
      '',
      companyLine(B, C2, DOC),
      executionLine(B, C1, 1),
      JSON.stringify({ kind: 'customer', record: { id: C2, cmsProjectId: A, type: 'Company', status: 'Sleeping' } }),
      executionLine(A, C1, 2),
    ].join('\n');
    const r = await push(svc.url, writeA, body);
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toBe('no-store');
    const result = (await r.json()) as ImportResult;
    expect(result).toMatchObject({ read: 6, stored: 2, unchanged: 0, stale: 0, rejected: 4, rejectsOmitted: 0 });
    expect(result.rejects.map((x) => [x.line, x.pointer])).toEqual([
      [2, ''],
      [4, '/record/cmsProjectId'],
      [5, '/cmsProjectId'],
      [6, '/record/status'],
    ]);
    expect(result.rejects[1]!.message).toContain(A);
    expect((await get(`/v1/companies/${C1}/details`, readA)).status).toBe(200);
    // Project B's key finds nothing: the lines naming B were refused, not stored under B.
    expect((await get(`/v1/companies/${C2}/details`, readB)).status).toBe(404);
    expect(await (await get(`/v1/customers/${C1}/scenario-executions`, readB)).json()).toMatchObject({ code: 'not_found' });
  });

  it("prepares the pushed lines in the service's worker thread, not the thread that serves reads", async () => {
    const before = svc.ingestPool!.completed;
    const r = await push(svc.url, writeA, [companyLine(A, C3, DOC), executionLine(A, C3, 7)].join('\n') + '\n');
    expect(await r.json()).toMatchObject({ read: 2, rejected: 0 });
    expect(svc.ingestPool!.completed).toBe(before + 1);
    expect((await get(`/v1/companies/${C3}/details`, readA)).status).toBe(200);
  });

  it('takes a gzip body, and a retried push changes nothing: no new feed entry, every record unchanged', async () => {
    const lines = [companyLine(A, C2, DOC), executionLine(A, C2, 0), executionLine(A, C2, 1)].join('\n') + '\n';
    const first = (await (await push(svc.url, writeA, new Uint8Array(gzipSync(lines)), { 'content-encoding': 'gzip' })).json()) as ImportResult;
    expect(first).toMatchObject({ read: 3, stored: 3, rejected: 0 });
    await feedSettled(svc.dbUrl);
    const before = await catchUp(svc.url, '/v1/changes', readA);
    const again = (await (await push(svc.url, writeA, lines)).json()) as ImportResult;
    expect(again).toMatchObject({ read: 3, stored: 0, unchanged: 3, rejected: 0 });
    await feedSettled(svc.dbUrl);
    const after = await catchUp(svc.url, before.next, readA);
    expect(after.items).toEqual([]);
    const runs = (await (await get(`/v1/customers/${C2}/scenario-executions`, readA)).json()) as unknown[];
    expect(runs).toHaveLength(2);
  });

  it('answers 413 for a body over the limit, plain or gzip (counted decoded), and stores nothing of it', async () => {
    const lines: string[] = [];
    for (let i = 0; lines.join('\n').length < 20_000; i++) lines.push(executionLine(A, C1, i));
    const body = lines.join('\n') + '\n';
    const plain = await push(small.url, writeSmall, body);
    expect(plain.status).toBe(413);
    expect(await plain.json()).toMatchObject({ code: 'payload_too_large', issues: [] });
    const zipped = new Uint8Array(gzipSync(body));
    expect(zipped.length).toBeLessThan(4096);
    const gz = await push(small.url, writeSmall, zipped, { 'content-encoding': 'gzip' });
    expect(gz.status).toBe(413);
    expect(await small.store.customerKnown(A, recordKey(C1))).toBe(false);
    expect(await small.store.listChanges(A, undefined, 10)).toEqual([]);
  });

  it('keeps each record once at its newest version when concurrent clients push overlapping, shuffled batches; the feed and the alert list show them', async () => {
    const P = 'push-http-many';
    const key = (await svc.key(P, { scopes: ['records:write', 'alerts:read', 'changes:read', 'companies:read'] })).key;
    const env = versionedEnvelopes(P, 2000, 7);
    const clients = 4;
    const chunk = 250;
    // Each client pushes every envelope, from its own rotation of the shuffled list: all overlap.
    const results = await Promise.all(
      Array.from({ length: clients }, async (_, c) => {
        const client = createClient({ baseUrl: `${svc.url}/v1`, apiKey: key });
        const start = Math.floor((env.lines.length * c) / clients);
        const mine = [...env.lines.slice(start), ...env.lines.slice(0, start)];
        const totals = { stored: 0, rejected: 0 };
        for (let i = 0; i < mine.length; i += chunk) {
          const r = await client.pushRecords(mine.slice(i, i + chunk).join('\n'));
          totals.stored += r.stored;
          totals.rejected += r.rejected;
        }
        return totals;
      }),
    );
    expect(results.every((r) => r.rejected === 0)).toBe(true);
    expect(await versionProblems(svc.store, P, env)).toEqual([]);
    await feedSettled(svc.dbUrl);
    const feed = await catchUp(svc.url, '/v1/changes?limit=1000', key);
    const fed = new Set(feed.items.map((c) => `${c.kind}:${c.id}`));
    for (const id of env.companies.keys()) expect(fed.has(`company:${id}`)).toBe(true);
    for (const id of env.alerts.keys()) expect(fed.has(`alert:${id}`)).toBe(true);
    // The feed holds each record's latest change once: one entry per distinct record, none twice.
    const records = env.companies.size + env.alerts.size + [...env.executions.values()].reduce((n, runs) => n + runs.size, 0);
    expect(feed.items.length).toBe(records);
    expect(new Set(feed.items.map((c) => `${c.kind}:${c.id}:${c.customerId ?? ''}`)).size).toBe(records);
    expect(results.reduce((n, r) => n + r.stored, 0)).toBeGreaterThanOrEqual(records);
    const listed = (await (await get('/v1/alerts?limit=200', key)).json()) as { id: string; updatedAt: string }[];
    expect(new Set(listed.map((a) => a.id))).toEqual(new Set(env.alerts.keys()));
    for (const a of listed) expect(Date.parse(a.updatedAt)).toBe(Date.parse(env.alerts.get(a.id)!));
  });

  it('answers a push whose store work outlasts the request time-out, once its records are stored', async () => {
    // The socket idle time-out is the request time-out: the import writes nothing to the socket while it waits.
    const slow = await startTestService([], { limits: { requestTimeout: 1000, headersTimeout: 1000 } });
    let held: HeldWrites | undefined;
    try {
      const k = (await slow.key(A, { scopes: ['records:write'] })).key;
      // More than one batch: SQLite waits for its lock synchronously, and only an import with work left after that wait meets the time-out.
      const lines = Array.from({ length: 1500 }, (_, i) => executionLine(A, C1, i));
      held = await holdWrites(slow.dbUrl, 2500);
      const started = Date.now();
      const r = await push(slow.url, k, lines.join('\n') + '\n');
      expect(r.status).toBe(200);
      expect(await r.json()).toMatchObject({ read: 1500, stored: 1500, rejected: 0 });
      // It did wait past the time-out, for the writes held back.
      expect(Date.now() - started).toBeGreaterThan(1000);
    } finally {
      await held?.released;
      await slow.close();
    }
  });

  it('records the push in the access log, and the client throws the contract error for a refused push', async () => {
    const r = await fetch(`${svc.url}/v1/records`, {
      method: 'POST',
      headers: { authorization: `Bearer ${writeA}`, 'content-type': 'application/x-ndjson', 'x-request-id': 'the-push' },
      body: companyLine(A, C1, DOC),
    });
    expect(r.status).toBe(200);
    let log: Awaited<ReturnType<typeof svc.store.queryAccessLog>> = [];
    for (let i = 0; i < 200 && !log.some((e) => e.requestId === 'the-push'); i++) {
      log = await svc.store.queryAccessLog({ project: A, limit: 1000 });
      if (!log.some((e) => e.requestId === 'the-push')) await new Promise((res) => setTimeout(res, 50));
    }
    expect(log.find((e) => e.requestId === 'the-push')).toMatchObject({ route: '/v1/records', status: 200 });
    const client = createClient({ baseUrl: `${svc.url}/v1`, apiKey: readA });
    await expect(client.pushRecords(companyLine(A, C1, DOC))).rejects.toBeInstanceOf(ClientError);
  });
});
