/**
 * A store whose search index holds its words untagged (before projects had terms of their own)
 * is built again when it opens, on both stores: its companies are found as before, by their own
 * project only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordKey } from '../../src/contract/record-key.js';
import { companyListingOf } from '../../src/store/company-listing.js';
import { searchTag, taggedText } from '../../src/store/company-search.js';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { POSTGRES_MIGRATIONS } from '../../src/store/postgres/migrations.js';
import { migrationName } from '../../src/store/schema-migrations.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { SQLITE_MIGRATIONS } from '../../src/store/sqlite/migrations.js';
import { migrationsBefore, SQLITE_ACCESS_LOG_RECORDS_BEFORE_BITS } from '../support/migrations.js';
import type { CustomerUpsert, Store } from '../../src/store/store.js';
import { companyRecord, numberedId, type CompanySpec } from '../support/companies.js';
import { storeHarnesses, type Harness } from '../support/store-harness.js';
import { stored } from '../support/upserts.js';

function write(spec: CompanySpec): CustomerUpsert {
  const record = companyRecord({ ...spec, updatedAt: '2024-01-01T00:00:00Z' });
  return { kind: 'customer', project: spec.project, key: recordKey(spec.id), versionKey: '2024-01-01T00:00:00Z', isCompany: true, company: companyListingOf(record, 6), ...stored(record) };
}

const found = async (store: Store, project: string, q: string): Promise<string[]> =>
  (await store.listCompanies(project, { order: 'desc', q }, undefined, 50)).map((c) => c.key).sort();

/** Puts the store's search index back as the version before the tags wrote it, and forgets that version. */
async function untag(store: Store): Promise<void> {
  if (store instanceof SqliteStore) {
    store.db.exec(`DROP TABLE company_search;
      CREATE VIRTUAL TABLE company_search USING fts5(names, ids, tokenize = 'unicode61 remove_diacritics 2');
      INSERT INTO company_search (rowid, names, ids) SELECT id, search_names, search_ids FROM companies ORDER BY id;
      ${SQLITE_ACCESS_LOG_RECORDS_BEFORE_BITS}`);
    // The tags' migration and those after it (the access log's rows of bits) are applied again on open.
    const tags = migrationsBefore(SQLITE_MIGRATIONS, 'search_tagged(').length + 1;
    for (let v = tags; v <= SQLITE_MIGRATIONS.length; v++) store.db.prepare('DELETE FROM kysely_migration WHERE name = ?').run(migrationName(v));
    return;
  }
  if (!(store instanceof PostgresStore)) throw new Error('unknown store');
  await store.pool.query(`ALTER TABLE companies DROP COLUMN search;
    ALTER TABLE companies ADD COLUMN search tsvector GENERATED ALWAYS AS
      (setweight(to_tsvector('simple'::regconfig, search_names), 'A') || setweight(to_tsvector('simple'::regconfig, search_ids), 'B')) STORED;
    CREATE INDEX companies_search ON companies USING gin (search);`);
  // The tags' migration and those after it are applied again on open.
  const tags = migrationsBefore(POSTGRES_MIGRATIONS, 'lpad(to_hex(hashtextextended(project, 0)').length + 1;
  for (let v = tags; v <= POSTGRES_MIGRATIONS.length; v++) await store.pool.query('DELETE FROM kysely_migration WHERE name = $1', [migrationName(v)]);
}

/** Puts a company's words back as they were spelt before base letters (stroked letters kept whole), and forgets the migration that lists companies again. */
async function unfold(store: Store, project: string, key: string, names: string): Promise<void> {
  if (store instanceof SqliteStore) {
    const { id, search_ids } = store.db.prepare('SELECT id, search_ids FROM companies WHERE project = ? AND customer_key = ?').get(project, key) as { id: number; search_ids: string };
    store.db.prepare('UPDATE companies SET search_names = ? WHERE id = ?').run(names, id);
    store.db.prepare('DELETE FROM company_search WHERE rowid = ?').run(id);
    store.db.prepare('INSERT INTO company_search (rowid, names, ids) VALUES (?, ?, ?)').run(id, taggedText(searchTag(project), names), taggedText(searchTag(project), search_ids));
    store.db.prepare('DELETE FROM kysely_migration WHERE name = ?').run(migrationName(migrationsBefore(SQLITE_MIGRATIONS, 'letters with a stroke').length + 1));
    return;
  }
  if (!(store instanceof PostgresStore)) throw new Error('unknown store');
  await store.pool.query('UPDATE companies SET search_names = $3 WHERE project = $1 AND customer_key = $2', [project, key, names]);
  // That migration and those after it are applied again on open.
  for (let v = migrationsBefore(POSTGRES_MIGRATIONS, 'letters with a stroke').length + 1; v <= POSTGRES_MIGRATIONS.length; v++) {
    await store.pool.query('DELETE FROM kysely_migration WHERE name = $1', [migrationName(v)]);
  }
}

describe.each(storeHarnesses())('a search index of untagged words on $adapter', ({ make }) => {
  let h: Harness;
  let store: Store;
  const a: CompanySpec = { id: numberedId(1), project: 'proj-a', name: 'Müller Trading', registrationNumber: 'HRB 555-777' };
  const b: CompanySpec = { id: numberedId(2), project: 'proj-b', name: 'Muller Shipping' };
  beforeAll(async () => {
    h = make();
    const old = await h.open();
    await old.writeBatch([write(a), write(b)]);
    await untag(old);
    // Untagged, the index no longer answers this build's searches.
    expect(await found(old, 'proj-a', 'muller')).toEqual([]);
    await old.close();
    store = await h.open();
  });
  afterAll(async () => {
    await store?.close();
    await h?.cleanup();
  });

  it('is built again when the store opens: each project finds its own companies', async () => {
    expect(await found(store, 'proj-a', 'muller')).toEqual([recordKey(a.id)]);
    expect(await found(store, 'proj-a', 'hrb555777')).toEqual([recordKey(a.id)]);
    expect(await found(store, 'proj-b', 'mull ship')).toEqual([recordKey(b.id)]);
    expect(await found(store, 'proj-b', 'trading')).toEqual([]);
    if (store instanceof SqliteStore) {
      store.db.prepare("INSERT INTO company_search (company_search) VALUES ('integrity-check')").run();
      expect(store.db.prepare('SELECT count(*) AS n FROM company_search').get()).toEqual({ n: 2 });
    }
  });
});

describe.each(storeHarnesses())('a search index whose words kept stroked letters whole on $adapter', ({ make }) => {
  let h: Harness;
  let store: Store;
  const a: CompanySpec = { id: numberedId(3), project: 'proj-a', name: 'Łódź Øresund Trading' };
  beforeAll(async () => {
    h = make();
    const old = await h.open();
    await old.writeBatch([write(a)]);
    await unfold(old, a.project, recordKey(a.id), 'łódź øresund trading');
    // Spelt as before, the words answer neither the base letters nor the letters themselves.
    expect(await found(old, 'proj-a', 'lodz')).toEqual([]);
    expect(await found(old, 'proj-a', 'Łódź')).toEqual([]);
    await old.close();
    store = await h.open();
  });
  afterAll(async () => {
    await store?.close();
    await h?.cleanup();
  });

  it('lists its companies again when the store opens: found by the base letters and by the letters alike', async () => {
    expect(await found(store, 'proj-a', 'lodz oresund')).toEqual([recordKey(a.id)]);
    expect(await found(store, 'proj-a', 'ŁÓDŹ')).toEqual([recordKey(a.id)]);
  });
});
