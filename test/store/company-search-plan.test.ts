/**
 * The company list's reads are index reads on both stores: a search goes through the search index
 * (FTS5's virtual table, PostgreSQL's GIN index), a page without one is a range scan of the page
 * index in its order, with no sort step.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importFiles } from '../../src/ingest/importer.js';
import { companyPageQuery, POSTGRES_COMPANIES, SQLITE_COMPANIES } from '../../src/store/company-page-sql.js';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { CompanyFilter, Store } from '../../src/store/store.js';
import { companySpecLine, numberedId } from '../support/companies.js';
import { storeHarnesses, type Harness } from '../support/store-harness.js';

const P = 'proj-a';
const LINES = Array.from({ length: 60 }, (_, i) =>
  companySpecLine({
    id: numberedId(i),
    project: i % 3 === 0 ? 'proj-b' : P,
    name: `Company ${i} ${i % 2 === 0 ? 'Exchange' : 'Trading'}`,
    registrationNumber: `HRB ${i}`,
    status: i % 2 === 0 ? 'Active' : 'Dormant',
    updatedAt: new Date(Date.UTC(2024, 0, 1, 0, i)).toISOString(),
  }),
);

const SEARCH: CompanyFilter = { order: 'desc', q: 'exch hrb', statuses: ['Active'], from: '2024-01-01T00:05:00Z' };
const PAGES: CompanyFilter[] = [
  { order: 'desc' },
  { order: 'asc', statuses: ['Active'], from: '2024-01-01T00:10:00Z', to: '2024-01-01T00:40:00Z' },
  { order: 'desc', countries: ['FRA'], riskScores: ['Low'], onboardingLevels: ['KYB'] },
];
const AFTER = { sortKey: '2024-01-01T00:30:00Z', key: numberedId(30) };

/** The plan text of a page query on the store's own connection. */
async function planOf(store: Store, filter: CompanyFilter, after?: typeof AFTER): Promise<string> {
  if (store instanceof SqliteStore) {
    const q = companyPageQuery(SQLITE_COMPANIES, P, filter, after, 51)!;
    const rows = store.db.prepare(`EXPLAIN QUERY PLAN ${q.sql}`).all(...q.params) as { detail: string }[];
    return rows.map((r) => r.detail).join('\n');
  }
  if (!(store instanceof PostgresStore)) throw new Error('unknown store');
  const q = companyPageQuery(POSTGRES_COMPANIES, P, filter, after, 51)!;
  const client = await store.pool.connect();
  try {
    // A table this small is cheaper to read whole, or through a bitmap and a sort: the test asks
    // whether an index serves the query, in its order (a sort the index cannot spare still shows).
    await client.query('ANALYZE companies');
    await client.query('SET enable_seqscan = off');
    if (filter.q === undefined) await client.query('SET enable_bitmapscan = off; SET enable_sort = off');
    const r = await client.query<{ 'QUERY PLAN': string }>({ text: `EXPLAIN ${q.sql}`, values: q.params });
    return r.rows.map((row) => row['QUERY PLAN']).join('\n');
  } finally {
    await client.query('RESET enable_seqscan; RESET enable_bitmapscan; RESET enable_sort');
    client.release();
  }
}

describe.each(storeHarnesses())('company list query plans on $adapter', ({ adapter, make }) => {
  let h: Harness;
  let store: Store;
  let dir: string;
  beforeAll(async () => {
    h = make();
    store = await h.open();
    dir = mkdtempSync(join(tmpdir(), 'crs-plan-'));
    writeFileSync(join(dir, 'in.ndjson'), LINES.join('\n') + '\n');
    await importFiles(store, [join(dir, 'in.ndjson')]);
  });
  afterAll(async () => {
    await store?.close();
    await h?.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers a search through the search index', async () => {
    expect(await store.listCompanies(P, SEARCH, undefined, 50)).not.toEqual([]);
    for (const after of [undefined, { sortKey: '-1', key: numberedId(4) }]) {
      const plan = await planOf(store, SEARCH, after);
      if (adapter === 'sqlite') expect(plan).toMatch(/SCAN company_search VIRTUAL TABLE INDEX/);
      else expect(plan).toMatch(/Bitmap Index Scan on companies_search/);
      expect(plan).not.toMatch(/SCAN c\b|Seq Scan|companies_page/);
    }
  });

  it('answers a page without search as a range scan of the page index, in order, without a sort', async () => {
    for (const filter of PAGES) {
      for (const after of [undefined, AFTER]) {
        const plan = await planOf(store, filter, after);
        if (adapter === 'sqlite') {
          expect(plan).toMatch(/SEARCH c USING INDEX companies_page \(project=/);
          expect(plan).not.toMatch(/TEMP B-TREE/);
        } else {
          expect(plan).toMatch(/Index (Only )?Scan( Backward)? using companies_page on companies c/);
          expect(plan).not.toMatch(/Sort|Seq Scan/);
        }
      }
    }
  });
});
