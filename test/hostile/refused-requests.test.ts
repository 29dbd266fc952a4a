/**
 * Refused requests: a client without a valid key has a budget of refused answers per address
 * (then 429, across replicas with Redis), a flood of them writes a bounded access log, refusals
 * of known keys are logged under their project, and the log can be pruned by age.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { startAccessLogRetention } from '../../src/access-log/retention.js';
import { openRedisRateLimiter } from '../../src/http/redis-rate-limiter.js';
import type { AccessLogEntry } from '../../src/access-log/access-log.js';
import { batchesOf } from '../../src/access-log/batches.js';
import { runCli } from '../support/cli-process.js';
import { companyLine } from '../support/records.js';
import { storeUnderTest } from '../support/stores.js';
import { testRedis } from '../support/test-redis.js';
import { startTestService, type TestService } from '../support/test-service.js';

const P = 'refused-p';
const C = '0b5c2a4e-3d1f-4a6b-9c8d-7e6f5a4b3c2d';
const LINES = [companyLine(P, C, 'f1e2d3c4-b5a6-4978-8a9b-0c1d2e3f4a5b')];
/** A well-formed key no store holds. */
const UNKNOWN_KEY = `crs_000000000000_${'A'.repeat(43)}`;

const services: TestService[] = [];
afterAll(async () => {
  for (const s of services) await s.close();
});

async function serve(opts: Parameters<typeof startTestService>[1]): Promise<TestService> {
  const svc = await startTestService(LINES, opts);
  services.push(svc);
  return svc;
}

async function get(svc: TestService, path: string, key?: string): Promise<Response> {
  const r = await fetch(`${svc.url}${path}`, { headers: key === undefined ? {} : { authorization: `Bearer ${key}` } });
  await r.arrayBuffer();
  return r;
}

async function deleteOf(svc: TestService, path: string, key: string): Promise<Response> {
  const r = await fetch(`${svc.url}${path}`, { method: 'DELETE', headers: { authorization: `Bearer ${key}` } });
  await r.arrayBuffer();
  return r;
}

/** Sends `n` requests, `parallel` at a time, and returns their statuses in order. */
async function flood(n: number, parallel: number, send: (i: number) => Promise<Response>): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < n; i += parallel) {
    const batch = await Promise.all(Array.from({ length: Math.min(parallel, n - i) }, (_, j) => send(i + j)));
    statuses.push(...batch.map((r) => r.status));
  }
  return statuses;
}

describe('refused requests', () => {
  it('gives a client address a budget of refused answers, then 429 with Retry-After in the error body; keys from that address still read', async () => {
    const svc = await serve({ refusedBurst: 5, refusedPerSecond: 0.001 });
    const key = await svc.key(P);
    const paths = [`/v1/companies/${C}/details`, '/v1/no-such-route', `/v1/alerts/${C}`];
    const statuses = await flood(30, 1, (i) => get(svc, paths[i % 3]!, i % 2 === 0 ? undefined : UNKNOWN_KEY));
    expect(statuses.slice(0, 5).every((s) => s === 401 || s === 404)).toBe(true);
    expect(statuses.slice(5)).toEqual(Array(25).fill(429));
    const r = await fetch(`${svc.url}/v1/companies/${C}/details`);
    expect(r.status).toBe(429);
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await r.json()).toEqual({ message: expect.any(String), code: 'rate_limited', issues: [] });
    // The address's refusals do not stand in the way of a valid key.
    expect((await get(svc, `/v1/companies/${C}/details`, key.key)).status).toBe(200);
    expect((await get(svc, `/v1/companies/${C}/details`, key.key)).status).toBe(200);
    // Nor do they turn a valid key's own refusal answered before the key check into a 429.
    expect((await get(svc, '/v1/no-such-route', key.key)).status).toBe(404);
  });

  it("spends a valid key's own budget on its refusals answered before the key check, never its address's", async () => {
    const svc = await serve({ rateBurst: 5, ratePerSecond: 0.001, refusedBurst: 1000, refusedPerSecond: 0.001 });
    const key = await svc.key(P);
    const paths = ['/v1/no-such-route', `/v1/companies/${C}/details/extra`];
    const statuses = await flood(9, 1, (i) => (i % 3 === 2 ? deleteOf(svc, paths[0]!, key.key) : get(svc, paths[i % 3]!, key.key)));
    expect(statuses).toEqual([...Array(5).fill(404), ...Array(4).fill(429)]);
    // Its reads share that budget; the address's own is untouched.
    expect((await get(svc, `/v1/companies/${C}/details`, key.key)).status).toBe(429);
    expect((await get(svc, `/v1/companies/${C}/details`)).status).toBe(401);
  });

  it('writes a bounded access log for a flood of refusals: ids cut to 128 characters, the rest counted in one entry per address', async () => {
    // One count for the whole flood however slow the machine: the interval outlasts the test.
    const svc = await serve({ refusedBurst: 5, refusedPerSecond: 0.001, accessLog: { summaryMs: 600_000 } });
    const long = (i: number): string => `${String(i).padStart(4, '0')}${'x'.repeat(496)}`;
    const statuses = await flood(300, 20, (i) => get(svc, `/v1/alerts/${long(i)}`, i % 2 === 0 ? undefined : UNKNOWN_KEY));
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    await svc.app.close(); // writes what is queued and the counts
    const logged = await svc.store.queryAccessLog({ project: '', limit: 10_000 });
    const rows = logged.filter((e) => e.count === undefined);
    const summaries = logged.filter((e) => e.count !== undefined);
    expect(rows).toHaveLength(5);
    for (const e of logged) expect((e.recordId ?? '').length).toBeLessThanOrEqual(128);
    expect(summaries).toHaveLength(1);
    expect(summaries[0]).toMatchObject({ status: 429, client: '127.0.0.1', keyId: null, count: 295 });
  });

  it('logs the refusals of a revoked or expired key, and a valid key’s 403 and 429, under the key’s project', async () => {
    const svc = await serve({ rateBurst: 2, ratePerSecond: 0.001 });
    const revoked = await svc.key(P);
    await svc.store.revokeApiKey(revoked.id, new Date().toISOString());
    const expired = await svc.key(P, { expiresAt: new Date(Date.now() - 60_000).toISOString() });
    const noScope = await svc.key(P, { scopes: ['alerts:read'] });
    expect((await get(svc, `/v1/companies/${C}/details`, revoked.key)).status).toBe(401);
    expect((await get(svc, `/v1/companies/${C}/details`, expired.key)).status).toBe(401);
    expect((await get(svc, `/v1/companies/${C}/details`, noScope.key)).status).toBe(403);
    expect((await get(svc, `/v1/companies/${C}/details`, noScope.key)).status).toBe(403);
    expect((await get(svc, `/v1/companies/${C}/details`, noScope.key)).status).toBe(429);
    await svc.app.close();
    const logged = await svc.store.queryAccessLog({ project: P, recordId: C, limit: 100 });
    expect(logged).toContainEqual(expect.objectContaining({ keyId: revoked.id, status: 401, recordId: C }));
    expect(logged).toContainEqual(expect.objectContaining({ keyId: expired.id, status: 401, recordId: C }));
    expect(logged).toContainEqual(expect.objectContaining({ keyId: noScope.id, status: 403, recordId: C }));
    expect(await svc.store.queryAccessLog({ project: P, limit: 100 })).toContainEqual(expect.objectContaining({ keyId: noScope.id, status: 429, count: 1 }));
    expect(await svc.store.queryAccessLog({ project: '', limit: 100 })).toEqual([]);
  });

  it('lists the unattributed attempts on a record with the project’s own: access-log --project P --record X', async () => {
    const svc = await serve({});
    const key = await svc.key(P);
    expect((await get(svc, `/v1/companies/${C}/details`, key.key)).status).toBe(200);
    expect((await get(svc, `/v1/companies/${C}/details`, UNKNOWN_KEY)).status).toBe(401);
    expect((await get(svc, `/v1/companies/${C}/details`)).status).toBe(401);
    expect((await get(svc, `/v1/companies/other/details`)).status).toBe(401);
    await svc.app.close();
    const out = runCli(['access-log', '--project', P, '--record', C, '--json', '--db', svc.dbUrl]);
    const listed = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as AccessLogEntry & { unattributed?: boolean });
    expect(listed).toHaveLength(3);
    expect(listed.filter((e) => e.unattributed !== true)).toEqual([expect.objectContaining({ keyId: key.id, status: 200, project: P })]);
    expect(listed.filter((e) => e.unattributed === true)).toEqual([
      expect.objectContaining({ keyId: null, status: 401, project: '', recordId: C }),
      expect.objectContaining({ keyId: null, status: 401, project: '', recordId: C }),
    ]);
    expect(runCli(['access-log', '--project', P, '--record', C, '--db', svc.dbUrl])).toContain('(unattributed)');
  });

  it('deletes whole batches older than the retention with their per-record rows, in the serving process and with access-log prune', async () => {
    const svc = await serve({ accessLog: false });
    const old = new Date(Date.now() - 40 * 86_400_000).toISOString();
    const entry = (at: string, recordId: string, requestId: string): AccessLogEntry => ({
      at,
      keyId: 'k1',
      project: P,
      route: '/v1/companies/:id/details',
      recordId,
      status: 200,
      requestId,
      client: '127.0.0.1',
    });
    const oldEntries = Array.from({ length: 30 }, (_, i) => entry(old, `old-${i % 3}`, `old-${i}`));
    for (let i = 0; i < 30; i += 3) await svc.store.appendAccessLog(batchesOf(oldEntries.slice(i, i + 3)));
    await svc.store.appendAccessLog(batchesOf([entry(new Date().toISOString(), 'old-0', 'new-0')]));
    await svc.store.indexAccessLog();
    const cutoff = new Date(Date.now() - 30 * 86_400_000).toISOString();
    expect(await svc.store.countAccessLogBefore(cutoff)).toEqual({ batches: 10, entries: 30 });
    expect(runCli(['access-log', 'prune', '--before', cutoff, '--dry-run', '--db', svc.dbUrl])).toContain('would delete 10 batches (30 entries)');
    expect(await svc.store.queryAccessLog({ project: P, limit: 100 })).toHaveLength(31);

    // The serving process's job, a few batches per call: everything older goes, the newer entry stays.
    const job = startAccessLogRetention(svc.store, 30, undefined, { perCall: 3 });
    try {
      expect(await job.runOnce()).toEqual({ batches: 10, entries: 30 });
    } finally {
      await job.stop();
    }
    expect(await svc.store.queryAccessLog({ project: P, limit: 100 })).toEqual([expect.objectContaining({ requestId: 'new-0' })]);
    expect(await svc.store.queryAccessLog({ project: P, recordId: 'old-1', limit: 100 })).toEqual([]);
    expect(await svc.store.queryAccessLog({ project: P, recordId: 'old-0', limit: 100 })).toEqual([expect.objectContaining({ requestId: 'new-0' })]);
    expect(await svc.store.countAccessLogBefore(cutoff)).toEqual({ batches: 0, entries: 0 });

    await svc.store.appendAccessLog(batchesOf([entry(old, 'old-9', 'old-again')]));
    expect(runCli(['access-log', 'prune', '--before', cutoff, '--db', svc.dbUrl])).toContain('deleted 1 batch (1 entry)');
    expect(await svc.store.queryAccessLog({ project: P, recordId: 'old-9', limit: 100 })).toEqual([]);
  });
});

// Each store's run has a database of its own: the two runs may overlap.
const REDIS_URL = process.env.TEST_REDIS_URL_REFUSED ?? `redis://127.0.0.1:6379/${storeUnderTest() === 'sqlite' ? 6 : 7}`;
const { client: probe, wanted: redisWanted } = await testRedis(REDIS_URL);
afterAll(() => probe.disconnect());

describe.runIf(redisWanted)('refused requests across replicas', () => {
  it('shares one address budget between two replicas through Redis', async () => {
    await probe.flushdb();
    const limiters = [await openRedisRateLimiter(REDIS_URL, 6, 0.001), await openRedisRateLimiter(REDIS_URL, 6, 0.001)];
    try {
      const a = await serve({ refusals: limiters[0] });
      const b = await serve({ refusals: limiters[1] });
      const statuses = await flood(20, 1, (i) => get(i % 2 === 0 ? a : b, `/v1/companies/${C}/details`));
      expect(statuses.filter((s) => s === 401)).toHaveLength(6);
      expect(statuses.slice(6)).toEqual(Array(14).fill(429));
    } finally {
      for (const l of limiters) await l.close();
    }
  });
});
