/** The access log: every read and every refused attempt, answerable per project and record. */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessLogEntry } from '../../src/access-log/access-log.js';
import { alertLine, companyLine, executionLine } from '../support/records.js';
import { startTestService, type TestService } from '../support/test-service.js';

const A = 'proj-a';
const B = 'proj-b';
const C = '0B5C2A4E-3D1F-4A6B-9C8D-7E6F5A4B3C2D';
const ALERT = 'aa5c2a4e-3d1f-4a6b-9c8d-7e6f5a4b3c2d';
/** A company with executions, read a page at a time. */
const EXECUTIONS_OF = 'CE5C2A4E-3D1F-4A6B-9C8D-7E6F5A4B3C2D';
const EXECUTIONS = 12;
let svc: TestService;
let keyA: { key: string; id: string };
let keyB: { key: string; id: string };

beforeAll(async () => {
  svc = await startTestService([
    companyLine(A, C, 'f1e2d3c4-b5a6-4978-8a9b-0c1d2e3f4a5b'),
    alertLine(A, ALERT, C, 'e1e2d3c4-b5a6-4978-8a9b-0c1d2e3f4a5b'),
    companyLine(A, EXECUTIONS_OF, 'c1e2d3c4-b5a6-4978-8a9b-0c1d2e3f4a5b'),
    ...Array.from({ length: EXECUTIONS }, (_, i) => executionLine(A, EXECUTIONS_OF, i)),
  ]);
  keyA = await svc.key(A);
  keyB = await svc.key(B);
});
afterAll(async () => svc?.close());

const get = (path: string, key?: string, id?: string): Promise<Response> =>
  fetch(`${svc.url}${path}`, { headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(id ? { 'x-request-id': id } : {}) } });

type Entry = Awaited<ReturnType<typeof svc.store.queryAccessLog>>[number];

/** Waits until the batched writer has stored at least `n` entries of the project (those `where` keeps). */
async function entries(project: string, n: number, recordId?: string, where: (e: Entry) => boolean = () => true) {
  for (let i = 0; i < 100; i++) {
    const got = (await svc.store.queryAccessLog({ project, recordId, limit: 1000 })).filter(where);
    if (got.length >= n) return got;
    await new Promise((r) => setTimeout(r, 50));
  }
  return (await svc.store.queryAccessLog({ project, recordId, limit: 1000 })).filter(where);
}

describe('access log', () => {
  it('records who read which company, with key, route, status, request id and client', async () => {
    await (await get(`/v1/companies/${C}/details`, keyA.key, 'read-1')).arrayBuffer();
    const got = await entries(A, 1, C.toLowerCase());
    expect(got).toContainEqual({
      at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      keyId: keyA.id,
      project: A,
      route: '/v1/companies/:id/details',
      recordId: C.toLowerCase(),
      status: 200,
      requestId: 'read-1',
      client: '127.0.0.1',
    });
  });

  it('records refused attempts: another project’s key, and no key at all', async () => {
    await (await get(`/v1/alerts/${ALERT}`, keyB.key, 'cross-1')).arrayBuffer();
    await (await get(`/v1/alerts/${ALERT}`, undefined, 'anon-1')).arrayBuffer();
    const b = await entries(B, 1);
    expect(b).toContainEqual(expect.objectContaining({ keyId: keyB.id, status: 404, recordId: ALERT, requestId: 'cross-1' }));
    const anon = await entries('', 1);
    expect(anon).toContainEqual(expect.objectContaining({ keyId: null, status: 401, recordId: ALERT, requestId: 'anon-1' }));
    // Project A's log shows only what A's keys did.
    expect((await entries(A, 1)).every((e) => e.keyId === keyA.id)).toBe(true);
  });

  it('answers "who looked at this record" within a time window', async () => {
    const before = new Date(Date.now() - 60_000).toISOString();
    await (await get(`/v1/companies/${C.toLowerCase()}/details`, keyA.key)).arrayBuffer();
    const got = await entries(A, 2, C.toLowerCase());
    expect(got.length).toBeGreaterThanOrEqual(2);
    expect(await svc.store.queryAccessLog({ project: A, recordId: C.toLowerCase(), since: before, limit: 100 })).toHaveLength(got.length);
    expect(await svc.store.queryAccessLog({ project: A, recordId: C.toLowerCase(), until: before, limit: 100 })).toHaveLength(0);
  });

  it('records the executions a page returned, so a query for any of them finds the read, the next page’s under its own request', async () => {
    const path = `/v1/customers/${EXECUTIONS_OF}/scenario-executions`;
    const first = await get(`${path}?limit=5`, keyA.key, 'executions-1');
    const firstIds = ((await first.json()) as { execution_id: string }[]).map((e) => e.execution_id);
    expect(firstIds).toHaveLength(5);
    const next = /^<([^>]+)>; rel="next"$/.exec(first.headers.get('link')!)![1]!;
    const secondIds = ((await (await get(next, keyA.key, 'executions-2')).json()) as { execution_id: string }[]).map((e) => e.execution_id);
    expect(secondIds).toHaveLength(5);
    const route = '/v1/customers/:customerId/scenario-executions';
    const [seen] = await entries(A, 1, firstIds[3]);
    expect(seen).toEqual({
      at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      keyId: keyA.id,
      project: A,
      route,
      recordId: EXECUTIONS_OF.toLowerCase(), // the customer asked for stays the entry's record
      status: 200,
      requestId: 'executions-1',
      client: '127.0.0.1',
      records: firstIds,
    });
    expect((await entries(A, 1, secondIds[0])).map((e) => [e.requestId, e.records])).toEqual([['executions-2', secondIds]]);
    // The customer's own reads include both pages.
    expect((await entries(A, 2, EXECUTIONS_OF.toLowerCase())).filter((e) => e.route === route).map((e) => e.requestId)).toEqual(['executions-1', 'executions-2']);
  });

  it('names the returned records of every read of a page served again and again, each under its own request', async () => {
    const path = `/v1/customers/${EXECUTIONS_OF}/scenario-executions?limit=4&order=desc`;
    const ids: string[][] = [];
    // One after another, so the writer's batch holds them together: later ones point to the first.
    for (let i = 0; i < 5; i++) ids.push(((await (await get(path, keyA.key, `again-${i}`)).json()) as { execution_id: string }[]).map((e) => e.execution_id));
    for (const page of ids) expect(page).toEqual(ids[0]);
    // Counted among this test's requests only: earlier reads of the same page name these records too.
    const seen = await entries(A, 5, ids[0]![2], (e) => e.requestId.startsWith('again-'));
    expect(seen.map((e) => [e.requestId, e.records])).toEqual(ids.map((page, i) => [`again-${i}`, page]));
  });

  it('stores no returned records for a refused list request, nor for a HEAD answer, which sends none', async () => {
    const path = `/v1/customers/${EXECUTIONS_OF}/scenario-executions`;
    await (await get(path, keyB.key, 'executions-other-project')).arrayBuffer(); // 404: not B's customer
    await (await get(`${path}?cursor=forged`, keyA.key, 'executions-bad-cursor')).arrayBuffer(); // 400
    const head = await fetch(`${svc.url}${path}`, { method: 'HEAD', headers: { authorization: `Bearer ${keyA.key}`, 'x-request-id': 'executions-head' } });
    expect(head.status).toBe(200);
    await (await get(path, keyA.key, 'executions-after')).arrayBuffer(); // written after the others: once it is in, so are they
    let log: AccessLogEntry[] = [];
    for (let i = 0; i < 100 && !log.some((e) => e.requestId === 'executions-after'); i++) {
      await new Promise((r) => setTimeout(r, 50));
      log = [...(await svc.store.queryAccessLog({ project: A, limit: 1000 })), ...(await svc.store.queryAccessLog({ project: B, limit: 1000 }))];
    }
    const byId = new Map(log.map((e) => [e.requestId, e]));
    expect(byId.get('executions-other-project')).toMatchObject({ status: 404, recordId: EXECUTIONS_OF.toLowerCase() });
    expect(byId.get('executions-bad-cursor')).toMatchObject({ status: 400 });
    expect(byId.get('executions-head')).toMatchObject({ status: 200 });
    for (const id of ['executions-other-project', 'executions-bad-cursor', 'executions-head']) expect(byId.get(id), id).not.toHaveProperty('records');
    expect(byId.get('executions-after')?.records).toHaveLength(EXECUTIONS);
  });

  it('names the client of a request whose connection closed before its answer was logged', async () => {
    const { port } = new URL(svc.url);
    const ids = Array.from({ length: 20 }, (_, i) => `hung-up-${i}`);
    // Each client sends its request and hangs up at once, before the answer can reach it.
    await Promise.all(
      ids.map(
        (id) =>
          new Promise<void>((resolve, reject) => {
            const socket = connect(Number(port), '127.0.0.1', () => {
              socket.end(`GET /v1/alerts/${ALERT} HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${keyA.key}\r\nx-request-id: ${id}\r\n\r\n`);
              socket.destroy();
              resolve();
            });
            socket.on('error', reject);
          }),
      ),
    );
    let logged: AccessLogEntry[] = [];
    for (let i = 0; i < 100 && logged.length < ids.length; i++) {
      await new Promise((r) => setTimeout(r, 50));
      logged = (await svc.store.queryAccessLog({ project: A, limit: 1000 })).filter((e) => e.requestId.startsWith('hung-up-'));
    }
    // Every one is written, once, under its key: answered before the hang-up was seen (200) or not (499).
    expect(logged.map((e) => e.requestId).sort()).toEqual([...ids].sort());
    for (const e of logged) {
      expect(e).toMatchObject({ client: '127.0.0.1', keyId: keyA.id, route: '/v1/alerts/:id' });
      expect([200, 499]).toContain(e.status);
    }
  });

  it('writes nothing when the access log is turned off', async () => {
    const quiet = await startTestService([companyLine(A, C, 'f1e2d3c4-b5a6-4978-8a9b-0c1d2e3f4a5b')], { accessLog: false });
    try {
      const k = await quiet.key(A);
      const r = await fetch(`${quiet.url}/v1/companies/${C}/details`, { headers: { authorization: `Bearer ${k.key}` } });
      expect(r.status).toBe(200);
      await quiet.app.close(); // a writer would flush what it holds here
      expect(await quiet.store.queryAccessLog({ project: A, limit: 10 })).toEqual([]);
    } finally {
      await quiet.close();
    }
  });
});
