/**
 * The company list's reads are index reads on both stores: a search goes through the search index
 * (FTS5's virtual table, PostgreSQL's GIN index), a page without one is a range scan of the page
 * index in its order, with no sort step. A search reads its own project's entries of the search
 * index only, however many matches other projects hold.
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

  it("reads only the searching project's entries of the search index", async () => {
    // Every company is named "Company …": proj-b holds 20 of the 60 and is the one searching.
    const filter: CompanyFilter = { order: 'desc', q: 'compan' };
    expect(await store.listCompanies('proj-b', filter, undefined, 50)).toHaveLength(20);
    if (store instanceof SqliteStore) {
      const q = companyPageQuery(SQLITE_COMPANIES, 'proj-b', filter, undefined, 51)!;
      // The page query's match text, alone against the index: the rows it finds before any join.
      const found = store.db.prepare('SELECT count(*) AS n FROM company_search WHERE company_search MATCH ?').get(q.params[0]);
      expect(found).toEqual({ n: 20 });
      return;
    }
    if (!(store instanceof PostgresStore)) throw new Error('unknown store');
    const q = companyPageQuery(POSTGRES_COMPANIES, 'proj-b', filter, undefined, 51)!;
    const client = await store.pool.connect();
    let r: { rows: { 'QUERY PLAN': unknown }[] };
    try {
      // Sixty rows are cheaper to read whole: the test asks what the index hands over when it is used.
      await client.query('SET enable_seqscan = off');
      r = await client.query<{ 'QUERY PLAN': unknown }>({ text: `EXPLAIN (ANALYZE, FORMAT JSON) ${q.sql}`, values: q.params });
    } finally {
      await client.query('RESET enable_seqscan');
      client.release();
    }
    const scans: { 'Index Name'?: string; 'Actual Rows': number }[] = [];
    const walk = (node: { Plans?: unknown[] } & Record<string, unknown>): void => {
      if (node['Index Name'] === 'companies_search') scans.push(node as (typeof scans)[number]);
      for (const child of node.Plans ?? []) walk(child as typeof node);
    };
    walk((r.rows[0]!['QUERY PLAN'] as { Plan: { Plans?: unknown[] } }[])[0]!.Plan);
    // The GIN index hands over the project's 20 matches, not the 60 of every project.
    expect(scans.map((n) => n['Actual Rows'])).toEqual([20]);
  });

  it('indexes every word behind its tag whole, also for a project whose tag reads as a number', async () => {
    if (!(store instanceof PostgresStore)) return;
    const tagged = 'proj-ranked'; // its hash's 8 hex digits, 19593e58, are a number to the text parser
    await importFiles(store, [writeLines(dir, [companySpecLine({ id: numberedId(90), project: tagged, name: 'Acme Exchange', externalCustomerId: 'cust-90' })])]);
    const r = await store.pool.query<{ lexeme: string; tag: string }>(
      `SELECT u.lexeme, 't' || lpad(to_hex(hashtextextended(c.project, 0) & 4294967295), 8, '0') AS tag
         FROM companies c, unnest(c.search) u WHERE c.project = ANY($1)`,
      [[tagged, P, 'proj-b']],
    );
    expect(r.rows.length).toBeGreaterThan(0);
    // Each lexeme is a tag and a word as one term: none is a bare tag or a bare word.
    for (const { lexeme, tag } of r.rows) expect(lexeme.startsWith(tag) && lexeme.length > tag.length, lexeme).toBe(true);
    const found = await store.listCompanies(tagged, { order: 'desc', q: 'acme exch' }, undefined, 50);
    expect(found.map((c) => c.key)).toEqual([numberedId(90)]);
  });
});

function writeLines(dir: string, lines: string[]): string {
  const file = join(dir, `more-${lines.length}.ndjson`);
  writeFileSync(file, lines.join('\n') + '\n');
  return file;
}
