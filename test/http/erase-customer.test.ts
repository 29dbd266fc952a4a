/** POST /v1/customers/{customerId}/erase through the real service: the scope, the dry run, project isolation, files, the access log. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientError, createClient } from '../../src/client/client.js';
import { projectSegment } from '../../src/files/file-store.js';
import { feedSettled } from '../support/changes-feed.js';
import { alertId, documentKey, personalHistory } from '../support/erasure-records.js';
import { startTestService, type TestService } from '../support/test-service.js';

const A = 'erase-http-a';
const B = 'erase-http-b';
const C = 'e2a5e000-3d1f-4a6b-9c8d-7e6f5a4b3c2d';
let svc: TestService;
let readA: string;
let readB: string;
let eraseA: string;

beforeAll(async () => {
  svc = await startTestService([...personalHistory(A, C, 3, 2), ...personalHistory(B, C, 2, 1)]);
  readA = (await svc.key(A)).key;
  readB = (await svc.key(B)).key;
  eraseA = (await svc.key(A, { scopes: ['records:erase'] })).key;
  for (const [p, n] of [[A, 999], [A, 0], [A, 1], [B, 999]] as const) await svc.files.putBytes(p, documentKey(C, n), 'pdf');
});
afterAll(async () => svc?.close());

const call = (method: string, path: string, key: string): Promise<Response> =>
  fetch(`${svc.url}${path}`, { method, headers: { authorization: `Bearer ${key}`, accept: 'application/json' } });
const fileOf = (project: string, n: number): string => join(svc.dir, 'files', projectSegment(project)!, documentKey(C, n));

describe('erase a customer over HTTP', () => {
  it('refuses a key without the records:erase scope with the contract error body, and changes nothing', async () => {
    const r = await call('POST', `/v1/customers/${C}/erase`, readA);
    expect(r.status).toBe(403);
    expect(await r.json()).toEqual({ code: 'forbidden', message: 'the API key lacks the records:erase scope', issues: [] });
    expect((await call('GET', `/v1/companies/${C}/details`, readA)).status).toBe(200);
  });

  it('refuses a bad dryRun value as invalid_request and changes nothing', async () => {
    const r = await call('POST', `/v1/customers/${C}/erase?dryRun=yes`, eraseA);
    expect(r.status).toBe(400);
    expect(await r.json()).toMatchObject({ code: 'invalid_request', issues: [{ message: expect.stringContaining('dryRun') }] });
    expect((await call('GET', `/v1/companies/${C}/details`, readA)).status).toBe(200);
  });

  it('refuses an unknown or repeated parameter, ignores a request body, and never answers 500', async () => {
    for (const query of ['?force=true', '?dryRun=true&dryRun=false']) {
      const r = await call('POST', `/v1/customers/${C}/erase${query}`, eraseA);
      expect(r.status).toBe(400);
      expect(await r.json()).toMatchObject({ code: 'invalid_request' });
    }
    const withBody = await fetch(`${svc.url}/v1/customers/${C}/erase?dryRun=true`, {
      method: 'POST',
      headers: { authorization: `Bearer ${eraseA}`, accept: 'application/json', 'content-type': 'application/json' },
      body: '{"dryRun": false, "customerId": "someone-else"',
    });
    expect(withBody.status).toBe(200);
    expect(await withBody.json()).toMatchObject({ customerId: C, dryRun: true });
    expect((await call('GET', `/v1/companies/${C}/details`, readA)).status).toBe(200);
  });

  it('counts in a dry run and changes nothing', async () => {
    const r = await call('POST', `/v1/customers/${C.toUpperCase()}/erase?dryRun=true`, eraseA);
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(await r.json()).toEqual({ customerId: C.toUpperCase(), dryRun: true, customers: 1, executions: 3, alerts: 2, documents: 3, filesDeleted: 0, filesPending: 0 });
    expect((await call('GET', `/v1/companies/${C}/details`, readA)).status).toBe(200);
    expect(existsSync(fileOf(A, 0))).toBe(true);
  });

  it('is a method of the typed client, refused like any operation without its scope', async () => {
    const counts = await createClient({ baseUrl: `${svc.url}/v1`, apiKey: eraseA }).eraseCustomer(C, { dryRun: 'true' });
    expect(counts).toMatchObject({ dryRun: true, customers: 1, executions: 3 });
    const refused = await createClient({ baseUrl: `${svc.url}/v1`, apiKey: readA }).eraseCustomer(C).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ClientError);
    expect(refused).toMatchObject({ status: 403, code: 'forbidden' });
  });

  it("erases the customer of the key's project only, deletes its files, and keeps who read it in the access log", async () => {
    const read = await call('GET', `/v1/companies/${C}/details`, readA);
    expect(read.status).toBe(200);
    const r = await fetch(`${svc.url}/v1/customers/${C}/erase`, { method: 'POST', headers: { authorization: `Bearer ${eraseA}`, 'x-request-id': 'the-erasure' } });
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ customerId: C, dryRun: false, customers: 1, executions: 3, alerts: 2, documents: 3, filesDeleted: 3, filesPending: 0 });

    expect((await call('GET', `/v1/companies/${C}/details`, readA)).status).toBe(404);
    expect((await call('GET', `/v1/customers/${C}/scenario-executions`, readA)).status).toBe(404);
    expect((await call('GET', `/v1/alerts/${alertId(C, 0)}`, readA)).status).toBe(404);
    expect(await (await call('GET', '/v1/companies?q=Quorvandel', readA)).json()).toEqual([]);
    for (const n of [999, 0, 1]) expect(existsSync(fileOf(A, n))).toBe(false);

    // Project B's customer of the same id is untouched, its file too.
    expect((await call('GET', `/v1/companies/${C}/details`, readB)).status).toBe(200);
    expect((await call('GET', `/v1/alerts/${alertId(C, 0)}`, readB)).status).toBe(200);
    expect(existsSync(fileOf(B, 999))).toBe(true);

    await feedSettled(svc.dbUrl);
    const feed = (await (await call('GET', '/v1/changes?limit=1000', readA)).json()) as { operation: string; id: string }[];
    expect(feed.filter((c) => c.operation === 'erase')).toHaveLength(6);
    expect(feed.filter((c) => c.operation === 'upsert')).toHaveLength(0);

    // Who read the erased company, and who erased it, still answer from the access log (ids only).
    const erasedBy = (e: { route: string; status: number; requestId: string }): boolean => e.requestId === 'the-erasure' && e.route === '/v1/customers/:customerId/erase' && e.status === 200;
    let log: Awaited<ReturnType<typeof svc.store.queryAccessLog>> = [];
    // The writer batches: wait until the erasure's own entry is stored (the reads before it come first).
    for (let i = 0; i < 200 && !log.some(erasedBy); i++) {
      log = await svc.store.queryAccessLog({ project: A, recordId: C, limit: 1000 });
      if (!log.some(erasedBy)) await new Promise((res) => setTimeout(res, 50));
    }
    expect(log.some((e) => e.route === '/v1/companies/:id/details' && e.status === 200)).toBe(true);
    expect(log.some(erasedBy)).toBe(true);
  });

  it('answers an erasure of a customer it no longer has with zero counts', async () => {
    const r = await call('POST', `/v1/customers/${C}/erase`, eraseA);
    expect(await r.json()).toMatchObject({ customers: 0, executions: 0, alerts: 0, documents: 0, filesPending: 0 });
  });
});
