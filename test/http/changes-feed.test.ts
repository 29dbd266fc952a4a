/** GET /v1/changes over real HTTP on the project's store: catch-up, resume, compaction, limits, long polls. */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/open-store.js';
import { catchUp, feedPage, feedSettled, importLines as importOnly, plainCustomerLine } from '../support/changes-feed.js';
import type { Store } from '../../src/store/store.js';
import { alertLine, companyLine, executionLine } from '../support/records.js';
import { storeUnderTest } from '../support/stores.js';
import { startTestService, type TestService } from '../support/test-service.js';

const P = 'proj-feed';
const COMPANY = '1a5c2a4e-3d1f-4a6b-9c8d-7e6f5a4b3c2d';
const DOCUMENTED = '2b5c2a4e-3d1f-4a6b-9c8d-7e6f5a4b3c2d';
const PERSON = '3c5c2a4e-3d1f-4a6b-9c8d-7e6f5a4b3c2d';
const ALERT = '4d5c2a4e-3d1f-4a6b-9c8d-7e6f5a4b3c2d';

/** A read in identity encoding: the ETag a gzip answer carries has its own suffix. */
const READ = (k: string): RequestInit => ({ headers: { authorization: `Bearer ${k}`, 'accept-encoding': 'identity' } });

let svc: TestService;
let key: string;

/** Imports, then waits until the import is servable (see feedSettled). */
async function importLines(store: Store, lines: string[]): ReturnType<typeof importOnly> {
  const summary = await importOnly(store, lines);
  await feedSettled(svc.dbUrl);
  return summary;
}

const initial = [
  plainCustomerLine(P, COMPANY, 'Company'),
  companyLine(P, DOCUMENTED, "8a1f9d2e-8a7b-4c3d-9e2f-1a0b9c8d7e61"),
  plainCustomerLine(P, PERSON, 'Individual'),
  alertLine(P, ALERT, PERSON, "8b1f9d2e-8a7b-4c3d-9e2f-1a0b9c8d7e61"),
  executionLine(P, PERSON, 0),
  executionLine(P, PERSON, 1),
];

beforeAll(async () => {
  svc = await startTestService(initial);
  await feedSettled(svc.dbUrl);
  key = (await svc.key(P, { scopes: ['changes:read', 'companies:read', 'alerts:read', 'pii:read', 'documents:read', 'screening:read'] })).key;
});
afterAll(async () => svc?.close());

describe('change feed', () => {
  it('serves every stored record once from the beginning, with its kind, id and customer', async () => {
    expect(svc.summary).toMatchObject({ stored: 6, rejected: 0 });
    const { items } = await catchUp(svc.url, '/v1/changes', key);
    const byId = new Map(items.map((c) => [c.id, c]));
    expect(items).toHaveLength(6);
    expect(byId.get(COMPANY)).toMatchObject({ kind: 'company', customerId: null, operation: 'upsert' });
    expect(byId.get(DOCUMENTED)).toMatchObject({ kind: 'company', customerId: null });
    expect(byId.get(PERSON)).toMatchObject({ kind: 'customer', customerId: null });
    expect(byId.get(ALERT)).toMatchObject({ kind: 'alert', customerId: PERSON });
    expect(byId.get('exec-0000')).toMatchObject({ kind: 'execution', customerId: PERSON });
    for (const c of items) expect(Date.parse(c.changedAt)).not.toBeNaN();
  });

  it("names each record's ETag as its read answers it (a record with document URLs adds its signing period)", async () => {
    const { items } = await catchUp(svc.url, '/v1/changes', key);
    const etagOf = (id: string): string => items.find((c) => c.id === id)!.etag!;
    const plain = await fetch(`${svc.url}/v1/companies/${COMPANY}/details`, READ(key));
    expect(plain.headers.get('etag')).toBe(`"${etagOf(COMPANY)}"`);
    const signed = await fetch(`${svc.url}/v1/companies/${DOCUMENTED}/details`, READ(key));
    expect(signed.headers.get('etag')!.startsWith(`"${etagOf(DOCUMENTED)}.`)).toBe(true);
    const alert = await fetch(`${svc.url}/v1/alerts/${ALERT}`, READ(key));
    expect(alert.headers.get('etag')!.startsWith(`"${etagOf(ALERT)}`)).toBe(true);
  });

  it('pages by limit and resumes after the last item of each page, oldest first', async () => {
    const whole = await catchUp(svc.url, '/v1/changes', key);
    const first = await feedPage(svc.url, '/v1/changes?limit=2', key);
    expect(first.items).toHaveLength(2);
    expect(first.next).toMatch(/^\/v1\/changes\?limit=2&after=/);
    const paged = await catchUp(svc.url, '/v1/changes?limit=2', key);
    expect(paged.items.map((c) => c.id)).toEqual(whole.items.map((c) => c.id));
    expect(first.items.map((c) => c.id)).toEqual(whole.items.slice(0, 2).map((c) => c.id));
  });

  it('answers an empty page with a Link to the same position, which then shows what comes next', async () => {
    const { next } = await catchUp(svc.url, '/v1/changes?limit=3', key);
    const empty = await feedPage(svc.url, next, key);
    expect(empty.status).toBe(200);
    expect(empty.items).toEqual([]);
    expect(empty.next).toBe(next);
    const NEW = '5e5c2a4e-3d1f-4a6b-9c8d-7e6f5a4b3c2d';
    await importLines(svc.store, [plainCustomerLine(P, NEW, 'Individual')]);
    const after = await feedPage(svc.url, next, key);
    expect(after.items.map((c) => c.id)).toEqual([NEW]);
  });

  it('moves an updated record to the end, where it appears once with its last ETag', async () => {
    const before = await catchUp(svc.url, '/v1/changes', key);
    expect(await importLines(svc.store, [plainCustomerLine(P, COMPANY, 'Company', 'Rejected')])).toMatchObject({ stored: 1 });
    expect(await importLines(svc.store, [plainCustomerLine(P, COMPANY, 'Company', 'Dormant')])).toMatchObject({ stored: 1 });
    const after = await catchUp(svc.url, '/v1/changes', key);
    expect(after.items).toHaveLength(before.items.length);
    expect(after.items.filter((c) => c.id === COMPANY)).toHaveLength(1);
    expect(after.items.at(-1)!.id).toBe(COMPANY);
    const read = await fetch(`${svc.url}/v1/companies/${COMPANY}/details`, READ(key));
    expect(((await read.json()) as { status: string }).status).toBe('Dormant');
    expect(read.headers.get('etag')).toBe(`"${after.items.at(-1)!.etag}"`);
    // A consumer that had caught up sees exactly the update.
    const tail = await feedPage(svc.url, before.next, key);
    expect(tail.items.map((c) => c.id)).toEqual([COMPANY]);
  });

  it('adds nothing for an unchanged or stale re-import', async () => {
    const { next } = await catchUp(svc.url, '/v1/changes', key);
    const summary = await importLines(svc.store, initial.slice(2));
    expect(summary.unchanged).toBe(4);
    const stale = await importLines(svc.store, [plainCustomerLine(P, '6f5c2a4e-3d1f-4a6b-9c8d-7e6f5a4b3c2d', 'Individual', 'Active', '2024-02-01T00:00:00Z')]);
    expect(stale).toMatchObject({ stored: 1, rejected: 0 });
    const { next: last } = await catchUp(svc.url, '/v1/changes', key);
    const older = await importLines(svc.store, [plainCustomerLine(P, '6f5c2a4e-3d1f-4a6b-9c8d-7e6f5a4b3c2d', 'Individual', 'Rejected', '2024-01-01T00:00:00Z')]);
    expect(older).toMatchObject({ stale: 1, rejected: 0 });
    expect((await feedPage(svc.url, last, key)).items).toEqual([]);
    expect((await feedPage(svc.url, next, key)).items.map((c) => c.id)).toEqual(['6f5c2a4e-3d1f-4a6b-9c8d-7e6f5a4b3c2d']);
  });

  it.each([
    ['after=nonsense', 'after'],
    ['after=eyJ4IjoxfQ.AAAA', 'after'],
    ['limit=0', 'limit'],
    ['limit=1001', 'limit'],
    ['limit=ten', 'limit'],
    ['wait=31', 'wait'],
    ['wait=-1', 'wait'],
    ['wait=1.5', 'wait'],
  ])('refuses %s with 400 naming %s', async (query, name) => {
    const page = await feedPage(svc.url, `/v1/changes?${query}`, key);
    expect(page.status).toBe(400);
    const body = page.body as { code: string; issues: { message: string }[] };
    expect(body.code).toBe('invalid_request');
    expect(body.issues.some((d) => d.message.startsWith(`${name}:`))).toBe(true);
  });

  it('refuses a cursor whose position was altered', async () => {
    const first = await feedPage(svc.url, '/v1/changes?limit=1', key);
    const cursor = new URL(first.next!, svc.url).searchParams.get('after')!;
    const [payload, sig] = cursor.split('.');
    const altered = Buffer.from(JSON.stringify(['0', '999999']), 'utf8').toString('base64url');
    expect(altered).not.toBe(payload);
    expect((await feedPage(svc.url, `/v1/changes?after=${altered}.${sig}`, key)).status).toBe(400);
  });

  it('holds an empty answer open until another connection stores a change, then answers before its wait is over', async () => {
    const { next } = await catchUp(svc.url, '/v1/changes', key);
    const waitUrl = next.replace(/^\/v1\/changes\?/, '/v1/changes?wait=20&');
    const started = Date.now();
    const polling = feedPage(svc.url, waitUrl, key);
    // Another connection to the same database, as another process would write.
    const other = await openStore(svc.dbUrl);
    try {
      await new Promise((r) => setTimeout(r, 300));
      await importOnly(other, [plainCustomerLine(P, '7a5c2a4e-3d1f-4a6b-9c8d-7e6f5a4b3c2d', 'Individual')]);
      const page = await polling;
      expect(page.items.map((c) => c.id)).toEqual(['7a5c2a4e-3d1f-4a6b-9c8d-7e6f5a4b3c2d']);
      // Answered because of the change, well before the 20 s wait would have run out.
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(page.next).toContain('wait=20');
    } finally {
      await other.close();
    }
  });

  it.runIf(storeUnderTest() === 'postgres')('answers a wait as soon as a change stored before it, held back by an older transaction, becomes servable', async () => {
    const { next } = await catchUp(svc.url, '/v1/changes', key);
    // Another session's open transaction holds the snapshot xmin back: nothing after it is servable yet.
    const older = new pg.Client({ connectionString: svc.dbUrl });
    await older.connect();
    try {
      await older.query('BEGIN');
      await older.query('SELECT pg_current_xact_id()');
      await importOnly(svc.store, [plainCustomerLine(P, '8b5c2a4e-3d1f-4a6b-9c8d-7e6f5a4b3c2d', 'Individual')]);
      const started = Date.now();
      const polling = feedPage(svc.url, next.replace(/^\/v1\/changes\?/, '/v1/changes?wait=8&'), key);
      // The wait's recheck finds nothing while the older transaction runs.
      await new Promise((r) => setTimeout(r, 500));
      await older.query('COMMIT');
      const page = await polling;
      expect(page.items.map((c) => c.id)).toEqual(['8b5c2a4e-3d1f-4a6b-9c8d-7e6f5a4b3c2d']);
      expect(Date.now() - started).toBeLessThan(4000);
    } finally {
      await older.end();
    }
  });

  it('answers a wait with an empty page once it runs out', async () => {
    const { next } = await catchUp(svc.url, '/v1/changes', key);
    const page = await feedPage(svc.url, next.replace(/^\/v1\/changes\?/, '/v1/changes?wait=1&'), key);
    expect(page.status).toBe(200);
    expect(page.items).toEqual([]);
    expect(page.next).toContain('wait=1');
  });

  it('answers a wait longer than the request time-out with its empty page and Link once the wait is over', async () => {
    // The socket idle time-out is the request time-out: the wait writes nothing for twice as long.
    const own = await startTestService([plainCustomerLine(P, COMPANY, 'Company')], { limits: { requestTimeout: 1000, headersTimeout: 1000 } });
    try {
      const k = (await own.key(P, { scopes: ['changes:read'] })).key;
      await feedSettled(own.dbUrl);
      const { next } = await catchUp(own.url, '/v1/changes', k);
      const started = Date.now();
      const page = await feedPage(own.url, next.replace(/^\/v1\/changes\?/, '/v1/changes?wait=2&'), k);
      expect(page.status).toBe(200);
      expect(page.items).toEqual([]);
      expect(page.next).toContain('wait=2');
      expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
    } finally {
      await own.close();
    }
  });

  it('ends waits promptly when the server closes', async () => {
    const own = await startTestService([plainCustomerLine(P, COMPANY, 'Company')]);
    try {
      const k = (await own.key(P, { scopes: ['changes:read'] })).key;
      await feedSettled(own.dbUrl);
      const { next } = await catchUp(own.url, '/v1/changes', k);
      const started = Date.now();
      const polling = feedPage(own.url, next.replace(/^\/v1\/changes\?/, '/v1/changes?wait=30&'), k);
      await new Promise((r) => setTimeout(r, 300));
      await own.app.close();
      const page = await polling;
      expect(page.status).toBe(200);
      expect(page.items).toEqual([]);
      expect(Date.now() - started).toBeLessThan(15_000);
    } finally {
      await own.close().catch(() => undefined);
    }
  });
});
