/** One behaviour suite for every Store adapter: SQLite on a temp file, PostgreSQL in a throwaway schema. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldsFor } from '../../src/wire/render.js';
import type { ExecutionFilter, ExecutionPosition, Store } from '../../src/store/store.js';
import { storeHarnesses } from '../support/store-harness.js';
import { alert, body, customer, day, execution, newProject } from '../support/upserts.js';

const IDENTITY = fieldsFor('identity');
const GZIP = fieldsFor('gzip');

describe.each(storeHarnesses())('$adapter store', ({ make }) => {
  const harness = make();
  let store: Store;

  beforeAll(async () => {
    store = await harness.open();
  });
  afterAll(async () => {
    await store?.close();
    await harness.cleanup();
  });

  it(`is the ${harness.name} dialect`, () => {
    expect(store.dialect).toBe(harness.name);
  });

  it('reads back a company, but not a non-company customer, which is still known', async () => {
    const p = newProject();
    const company = customer(p, 'acme', day(1));
    const person = customer(p, 'jane', day(1), false);
    expect(await store.writeBatch([company, person])).toEqual(['stored', 'stored']);
    expect(await store.getCompany(p, 'acme')).toEqual(body(company));
    expect(await store.getCompany(p, 'jane')).toBeUndefined();
    expect(await store.customerKnown(p, 'jane')).toBe(true);
    expect(await store.customerKnown(p, 'nobody')).toBe(false);
    expect(company.deflated).not.toBeNull();
  });

  it('reads back an alert and nothing for a missing one', async () => {
    const p = newProject();
    const a = alert(p, 'al-1', day(1));
    await store.writeBatch([a]);
    expect(await store.getAlert(p, 'al-1')).toEqual(body(a));
    expect(await store.getAlert(p, 'al-2')).toBeUndefined();
  });

  it('reads bodies holding multi-byte UTF-8 back byte for byte, in every selection of fields and in pages', async () => {
    const p = newProject();
    const note = 'Zürich — 北京 — 😀 — \\u0000 — "quoted"';
    const company = customer(p, 'acme', day(1), true, note);
    const bare = { ...alert(p, 'bare', day(1), note), deflated: null, layout: null };
    const run = execution(p, 'acme', 'e1', day(1), { note });
    await store.writeBatch([company, bare, run]);
    expect((await store.getCompany(p, 'acme', IDENTITY))?.body).toEqual(company.body);
    expect((await store.getCompany(p, 'acme'))?.body).toEqual(company.body);
    expect((await store.getAlert(p, 'bare', GZIP))?.body).toEqual(bare.body);
    const [row] = await store.listExecutions(p, 'acme', { order: 'asc' }, undefined, 10, IDENTITY);
    expect(row?.body).toEqual(run.body);
  });

  it('reads only the bytes an encoding needs, and the plain bytes where no gzip pieces are stored', async () => {
    const p = newProject();
    const company = customer(p, 'acme', day(1));
    const a = alert(p, 'al', day(1));
    const bare = { ...alert(p, 'bare', day(1)), deflated: null, layout: null };
    await store.writeBatch([company, a, bare]);
    const { body: b, deflated, etag, layout } = company;
    expect(await store.getCompany(p, 'acme', IDENTITY)).toEqual({ etag, layout, body: b, deflated: null });
    expect(await store.getCompany(p, 'acme', GZIP)).toEqual({ etag, layout, body: null, deflated });
    expect(await store.getAlert(p, 'al', GZIP)).toEqual({ ...body(a), body: null });
    expect(await store.getAlert(p, 'al', IDENTITY)).toEqual({ ...body(a), deflated: null });
    expect(await store.getAlert(p, 'bare', GZIP)).toEqual(body(bare));
    expect(await store.getCompany(p, 'nobody', GZIP)).toBeUndefined();
  });

  it('reads a page of executions with only the bytes its encoding needs, on both scans', async () => {
    const p = newProject();
    const packed = execution(p, 'c', 'e1', day(1), { scenarioIds: ['s1'] });
    const bare = { ...execution(p, 'c', 'e2', day(2), { scenarioIds: ['s1'] }), deflated: null, layout: null };
    await store.writeBatch([packed, bare]);
    const row = (e: typeof packed, over: object) => ({ executionId: e.executionId, sortKey: e.versionKey, ...body(e), ...over });
    for (const filter of [{ order: 'asc' as const }, { order: 'asc' as const, scenarioId: 's1' }]) {
      expect(await store.listExecutions(p, 'c', filter, undefined, 10, GZIP)).toEqual([row(packed, { body: null }), row(bare, {})]);
      expect(await store.listExecutions(p, 'c', filter, undefined, 10, IDENTITY)).toEqual([row(packed, { deflated: null }), row(bare, {})]);
      expect(await store.listExecutions(p, 'c', filter, undefined, 10)).toEqual([row(packed, {}), row(bare, {})]);
    }
  });

  it('keeps the same key in two projects as two records, invisible to each other', async () => {
    const [pa, pb] = [newProject(), newProject()];
    const ca = customer(pa, 'acme', day(1), true, 'a');
    const cb = customer(pb, 'acme', day(1), true, 'b');
    const onlyA = [alert(pa, 'only-a', day(1)), customer(pa, 'only-a', day(1))];
    expect(await store.writeBatch([ca, cb, ...onlyA])).toEqual(['stored', 'stored', 'stored', 'stored']);
    expect(await store.getCompany(pa, 'acme')).toEqual(body(ca));
    expect(await store.getCompany(pb, 'acme')).toEqual(body(cb));
    expect(await store.getCompany(pb, 'only-a')).toBeUndefined();
    expect(await store.getAlert(pb, 'only-a')).toBeUndefined();
    expect(await store.customerKnown(pb, 'only-a')).toBe(false);
  });

  it('reports identical bytes unchanged, an older version stale (kept out), a newer one stored', async () => {
    const p = newProject();
    const v2 = customer(p, 'acme', day(2));
    await store.writeBatch([v2, alert(p, 'al', day(2))]);
    const same = [customer(p, 'acme', day(2)), alert(p, 'al', day(2))];
    expect(await store.writeBatch(same)).toEqual(['unchanged', 'unchanged']);
    expect(await store.writeBatch([customer(p, 'acme', day(1)), alert(p, 'al', day(1))])).toEqual(['stale', 'stale']);
    expect(await store.getCompany(p, 'acme')).toEqual(body(v2));
    const v3 = customer(p, 'acme', day(3));
    const a3 = alert(p, 'al', day(3));
    expect(await store.writeBatch([v3, a3])).toEqual(['stored', 'stored']);
    expect(await store.getCompany(p, 'acme')).toEqual(body(v3));
    expect(await store.getAlert(p, 'al')).toEqual(body(a3));
    // Without a version to compare, the last write wins.
    const unversioned = customer(p, 'acme', null, true, 'x');
    expect(await store.writeBatch([unversioned])).toEqual(['stored']);
    expect(await store.getCompany(p, 'acme')).toEqual(body(unversioned));
  });

  it('keeps the same one of two contents of the same instant whichever arrives last, so a retry of either changes nothing', async () => {
    const p = newProject();
    const [x, y] = [customer(p, 'acme', day(2), true, 'x'), customer(p, 'acme', day(2), true, 'y')];
    const [kept, other] = x.etag > y.etag ? [x, y] : [y, x];
    for (const order of [[kept, other, kept], [other, kept, other]]) {
      const q = newProject();
      const moved = order.map((c) => ({ ...c, project: q }));
      for (const c of moved) await store.writeBatch([c]);
      expect(await store.getCompany(q, 'acme')).toEqual(body(kept));
    }
    const [ex, ey] = [execution(p, 'c', 'e', day(1), { scenarioIds: ['s1'] }), execution(p, 'c', 'e', day(1), { scenarioIds: ['s2'] })];
    const keptExecution = ex.etag > ey.etag ? ex : ey;
    expect(await store.writeBatch([ex, ey, ex, ey])).toHaveLength(4);
    expect(await store.listExecutions(p, 'c', { order: 'desc' }, undefined, 10)).toMatchObject([{ etag: keptExecution.etag }]);
  });

  it('decides a key seen twice in one batch against its earlier occurrence', async () => {
    const p = newProject();
    const [c1, c2] = [customer(p, 'acme', day(1)), customer(p, 'acme', day(2))];
    const older = customer(p, 'acme', day(1), true, 'older');
    expect(await store.writeBatch([c1, c2, older])).toEqual(['stored', 'stored', 'stale']);
    expect(await store.getCompany(p, 'acme')).toEqual(body(c2));
    const a = alert(p, 'al', day(1));
    expect(await store.writeBatch([a, alert(p, 'al', day(1))])).toEqual(['stored', 'unchanged']);
    const e1 = execution(p, 'c', 'e', day(1), { scenarioIds: ['s1'] });
    const e2 = execution(p, 'c', 'e', day(2), { scenarioIds: ['s2'] });
    expect(await store.writeBatch([e1, e2])).toEqual(['stored', 'stored']);
    const desc: ExecutionFilter = { order: 'desc' };
    expect(await store.listExecutions(p, 'c', desc, undefined, 10)).toMatchObject([{ sortKey: day(2), etag: e2.etag }]);
    expect(await store.listExecutions(p, 'c', { ...desc, scenarioId: 's1' }, undefined, 10)).toEqual([]);
    expect(await store.listExecutions(p, 'c', { ...desc, scenarioId: 's2' }, undefined, 10)).toHaveLength(1);
  });

  it('makes the customer of an execution known without making it a company', async () => {
    const p = newProject();
    expect(await store.customerKnown(p, 'cust')).toBe(false);
    await store.writeBatch([execution(p, 'cust', 'e1', day(1))]);
    expect(await store.customerKnown(p, 'cust')).toBe(true);
    expect(await store.getCompany(p, 'cust')).toBeUndefined();
    // The bare row an execution leaves neither blocks nor replaces the customer's own record.
    const c = customer(p, 'cust', day(1));
    expect(await store.writeBatch([c, execution(p, 'cust', 'e2', day(2))])).toEqual(['stored', 'stored']);
    expect(await store.getCompany(p, 'cust')).toEqual(body(c));
  });

  describe('listExecutions', () => {
    const p = newProject();
    const seed = [
      execution(p, 'c1', 'x3', day(1), { status: 'Passed', scenarioIds: ['s1'], objectTypes: 1 }),
      execution(p, 'c1', 'a1', day(2), { status: 'Failed', scenarioIds: ['s1', 's2'], objectTypes: 3 }),
      execution(p, 'c1', 'B1', day(2), { status: 'Passed', scenarioIds: ['s2'], objectTypes: 4 }),
      execution(p, 'c1', 'b2', day(2), { status: 'Error', scenarioIds: [], objectTypes: 0 }),
      execution(p, 'c1', 'z9', day(3), { status: null, scenarioIds: ['s1', 's1'], objectTypes: 2 }),
      execution(p, 'c1', 'm5', day(4), { status: 'Passed', scenarioIds: ['s3'], objectTypes: 1 }),
      execution(p, 'c2', 'other-customer', day(2), { scenarioIds: ['s1'], objectTypes: 7 }),
      execution(newProject(), 'c1', 'other-project', day(2), { scenarioIds: ['s1'], objectTypes: 7 }),
    ];
    const list = async (filter: Partial<ExecutionFilter>, limit = 100): Promise<string[]> =>
      (await store.listExecutions(p, 'c1', { order: 'desc', ...filter }, undefined, limit)).map((r) => r.executionId);

    beforeAll(async () => {
      expect(await store.writeBatch(seed)).toEqual(seed.map(() => 'stored'));
    });

    it('orders by sort key then execution id, bytewise, in either direction', async () => {
      expect(await list({ order: 'desc' })).toEqual(['m5', 'z9', 'b2', 'a1', 'B1', 'x3']);
      expect(await list({ order: 'asc' })).toEqual(['x3', 'B1', 'a1', 'b2', 'z9', 'm5']);
      const [first] = await store.listExecutions(p, 'c1', { order: 'asc' }, undefined, 1);
      expect(first).toEqual({ executionId: 'x3', sortKey: day(1), ...body(seed[0]!) });
    });

    it('pages with `after` so every execution comes exactly once', async () => {
      const filters: Partial<ExecutionFilter>[] = [{}, { statuses: ['Passed', 'Failed'] }, { scenarioId: 's1' }];
      for (const order of ['asc', 'desc'] as const) {
        for (const f of filters) {
          const filter: ExecutionFilter = { ...f, order };
          const seen: string[] = [];
          let after: ExecutionPosition | undefined;
          for (;;) {
            const page = await store.listExecutions(p, 'c1', filter, after, 2);
            if (page.length === 0) break;
            seen.push(...page.map((r) => r.executionId));
            const last = page[page.length - 1]!;
            after = { sortKey: last.sortKey, executionId: last.executionId };
          }
          expect(seen).toEqual(await list(filter));
        }
      }
    });

    it('filters by each criterion alone', async () => {
      expect(await list({ statuses: ['Passed'] })).toEqual(['m5', 'B1', 'x3']);
      expect(await list({ statuses: ['Passed', 'Error'], order: 'asc' })).toEqual(['x3', 'B1', 'b2', 'm5']);
      expect(await list({ scenarioId: 's1' })).toEqual(['z9', 'a1', 'x3']);
      expect(await list({ scenarioId: 'nope' })).toEqual([]);
      expect(await list({ objectType: 'IndividualMonitoring' })).toEqual(['z9', 'a1']);
      expect(await list({ objectType: 'TransactionMonitoring' })).toEqual(['B1']);
      expect(await list({ from: day(2), order: 'asc' })).toEqual(['B1', 'a1', 'b2', 'z9', 'm5']);
      expect(await list({ to: day(3), order: 'asc' })).toEqual(['x3', 'B1', 'a1', 'b2']);
      expect(await list({}, 2)).toEqual(['m5', 'z9']);
    });

    it('filters by all criteria combined', async () => {
      const all = { statuses: ['Failed', 'Passed'], objectType: 'PrivacyPreservingMonitoring', from: day(1), to: day(4) };
      expect(await list({ ...all, scenarioId: 's1' })).toEqual(['a1', 'x3']);
      expect(await list({ ...all, scenarioId: 's1', from: day(2) })).toEqual(['a1']);
      expect(await list({ ...all, order: 'asc' })).toEqual(['x3', 'a1']);
    });

    it('forgets the old scenarios of a rewritten execution, and ignores a stale rewrite', async () => {
      const moved = execution(p, 'c1', 'a1', day(5), { status: 'Failed', scenarioIds: ['s3'], objectTypes: 3 });
      expect(await store.writeBatch([moved])).toEqual(['stored']);
      expect(await list({ scenarioId: 's1' })).toEqual(['z9', 'x3']);
      expect(await list({ scenarioId: 's2' })).toEqual(['B1']);
      expect(await list({ scenarioId: 's3' })).toEqual(['a1', 'm5']);
      const stale = execution(p, 'c1', 'a1', day(1), { scenarioIds: ['s1'], note: 'old' });
      expect(await store.writeBatch([stale, moved])).toEqual(['stale', 'unchanged']);
      expect(await list({ scenarioId: 's1' })).toEqual(['z9', 'x3']);
      expect(await list({ order: 'desc' })).toEqual(['a1', 'm5', 'z9', 'b2', 'B1', 'x3']);
    });
  });

  it('inserts, finds, lists and revokes API keys', async () => {
    const [pa, pb] = [newProject(), newProject()];
    const key = (id: string, project: string, createdAt: string) => ({
      id,
      project,
      name: id === 'k1' ? null : `key ${id}`,
      scopes: ['read'],
      hash: `hash-${project}-${id}`,
      createdAt,
      expiresAt: null,
      revokedAt: null,
    });
    const [k1, k2, k3] = [key('k1', pa, day(2)), key('k2', pa, day(1)), key('k3', pb, day(3))];
    for (const k of [k1, k2, k3]) await store.insertApiKey(k);
    expect(await store.findApiKeyByHash(k1.hash)).toEqual(k1);
    expect(await store.findApiKeyByHash('no such hash')).toBeUndefined();
    expect(await store.listApiKeys(pa)).toEqual([k2, k1]);
    const all = await store.listApiKeys();
    expect(all.filter((k) => k.project === pa || k.project === pb)).toEqual([k2, k1, k3]);
    expect(await store.revokeApiKey('k1', day(5))).toBe(true);
    expect(await store.revokeApiKey('k1', day(6))).toBe(true);
    expect((await store.findApiKeyByHash(k1.hash))?.revokedAt).toBe(day(5));
    expect(await store.revokeApiKey('missing', day(5))).toBe(false);
  });

  it('keeps one 32-byte secret across reopening', async () => {
    const secret = await store.secret();
    expect(secret).toHaveLength(32);
    const again = await harness.open();
    try {
      expect(await again.secret()).toEqual(secret);
    } finally {
      await again.close();
    }
  });

  it('answers a ping', async () => {
    await expect(store.ping()).resolves.toBeUndefined();
  });
});
