/**
 * Pages that scan (searches here) hold at most a quarter of the PostgreSQL pool at once: a burst of
 * slow searches leaves connections for reads by id. The searches are held by a lock on the companies table, so how many
 * reached the server is read from pg_stat_activity, not timed.
 */
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { recordKey } from '../../../src/contract/record-key.js';
import { openPostgresStore, type PostgresStore } from '../../../src/store/postgres/postgres-store.js';
import { importLines } from '../../support/changes-feed.js';
import { companySpecLine, numberedId } from '../../support/companies.js';
import { adminQuery, throwawaySchema } from '../../support/postgres-admin.js';
import { postgresWanted } from '../../support/stores.js';

const schema = throwawaySchema('search_bound_test');
const APP = `search-bound-${process.pid}`;
const P = 'proj-a';
let store: PostgresStore | undefined;
let locker: pg.Client | undefined;

afterAll(async () => {
  await locker?.end().catch(() => undefined);
  await store?.close();
  await schema.drop().catch(() => undefined);
});

/** The store's statements waiting for a lock on the companies table. */
async function waitingSearches(): Promise<number> {
  const rows = await adminQuery<{ n: string }>(
    `SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = '${APP}' AND wait_event_type = 'Lock' AND query LIKE '%to_tsquery%'`,
  );
  return Number(rows[0]!.n);
}

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`never: ${what}`);
}

describe.runIf(postgresWanted)('searches on PostgreSQL', () => {
  it('run at most a quarter of the pool at once, and reads by id still find a connection meanwhile', async () => {
    await schema.create();
    store = await openPostgresStore(schema.url, { poolSize: 8, applicationName: APP });
    await importLines(store, Array.from({ length: 12 }, (_, i) => companySpecLine({ id: numberedId(i), project: P, name: `Bound Company ${i}` })));
    locker = new pg.Client({ connectionString: schema.url });
    await locker.connect();
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE companies IN ACCESS EXCLUSIVE MODE');
    // Each a different search, so none could share another's statement.
    const searches = Array.from({ length: 6 }, (_, i) => store!.listCompanies(P, { order: 'desc', q: `company ${i}` }, undefined, 10));
    // Awaited below; a failure before that must not leave them unhandled.
    for (const s of searches) s.catch(() => undefined);
    await until(async () => (await waitingSearches()) === 2, 'two searches waiting on the lock');
    // The other four wait in the store, not on the server: still two a moment later.
    await new Promise((r) => setTimeout(r, 200));
    expect(await waitingSearches()).toBe(2);
    const company = await store.getCompany(P, recordKey(numberedId(3)));
    expect(company?.etag.length).toBeGreaterThan(0);
    await locker.query('ROLLBACK');
    const pages = await Promise.all(searches);
    pages.forEach((page, i) => expect(page.map((c) => c.key)).toContain(recordKey(numberedId(i))));
  });
});
