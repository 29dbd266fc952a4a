/**
 * A store written before the company list existed gains it when it opens: every stored company is
 * listed from its JSON (summary, filter columns, search text), in chunks, once.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { recordKey } from '../../src/contract/record-key.js';
import { BACKFILL_CHUNK, COMPANY_BACKFILL_KEY } from '../../src/store/company-backfill.js';
import { runPostgresMigrations } from '../../src/store/postgres/kysely-migrations.js';
import { POSTGRES_MIGRATIONS } from '../../src/store/postgres/migrations.js';
import { openPostgresStore } from '../../src/store/postgres/postgres-store.js';
import { runSqliteMigrations } from '../../src/store/sqlite/kysely-migrations.js';
import { SQLITE_MIGRATIONS } from '../../src/store/sqlite/migrations.js';
import { migrationsBefore } from '../support/migrations.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { Store } from '../../src/store/store.js';
import { layoutRecord } from '../../src/wire/record-layout.js';
import { companyRecord, numberedId, summaryOfSpec, type CompanySpec } from '../support/companies.js';
import { throwawaySchema } from '../support/postgres-admin.js';
import { storesToTest } from '../support/stores.js';

const P = 'proj-a';
// More than one chunk, so the backfill's keyset moves on.
const N = BACKFILL_CHUNK + 3;
const specs: CompanySpec[] = Array.from({ length: N }, (_, i) => ({
  id: numberedId(i),
  project: P,
  name: i === 7 ? 'Société Générale' : `Old Company ${i}`,
  registrationNumber: `HRB ${i}-1`,
  status: i % 2 === 0 ? 'Active' : 'Dormant',
  country: 'FRA',
  updatedAt: new Date(Date.UTC(2024, 0, 1, 0, i)).toISOString(),
}));
const OTHER: CompanySpec = { id: numberedId(1, 'ffff'), project: 'proj-b', name: 'Elsewhere Ltd', updatedAt: '2024-03-01T00:00:00Z' };

/** A customer row as the schema before the company list held it; even-numbered ones with gzip pieces. */
function oldRow(s: CompanySpec, i: number, isCompany = true): unknown[] {
  const body = Buffer.from(JSON.stringify(companyRecord(s)));
  const { layout, deflated } = layoutRecord(body, { documents: null, gzipLevel: i % 2 === 0 ? 6 : null });
  const etag = createHash('sha256').update(body).digest('base64url').slice(0, 27);
  return [s.project, recordKey(s.id), isCompany, s.updatedAt ?? null, etag, body, layout, deflated];
}
const rows = [...specs.map((s, i) => oldRow(s, i)), oldRow(OTHER, 0), oldRow({ id: numberedId(2, 'eeee'), project: P, name: 'Person' }, 1, false)];
const INSERT = 'INSERT INTO customers (project, customer_key, has_record, is_company, version_key, etag, body, wire, gz) VALUES';

/** A store of each kind migrated to just before the company list, holding `rows`. */
const OLD_STORES: Record<string, () => Promise<{ open: () => Promise<Store>; pending: () => Promise<boolean>; cleanup: () => Promise<void> }>> = {
  async sqlite() {
    const dir = mkdtempSync(join(tmpdir(), 'crs-backfill-'));
    const file = join(dir, 'store.db');
    const db = new Database(file);
    await runSqliteMigrations(db, migrationsBefore(SQLITE_MIGRATIONS, 'backfill:companies'));
    const insert = db.prepare(`${INSERT} (?, ?, 1, ?, ?, ?, ?, ?, ?)`);
    for (const r of rows) insert.run(r[0], r[1], r[2] ? 1 : 0, ...r.slice(3));
    db.close();
    return {
      open: () => openSqliteStore(file),
      pending: async () => {
        const check = new Database(file, { readonly: true });
        try {
          return check.prepare('SELECT 1 FROM meta WHERE key = ?').get(COMPANY_BACKFILL_KEY) !== undefined;
        } finally {
          check.close();
        }
      },
      cleanup: async () => rmSync(dir, { recursive: true, force: true }),
    };
  },
  async postgres() {
    const schema = throwawaySchema();
    await schema.create();
    const pool = new pg.Pool({ connectionString: schema.url, max: 1 });
    const client = await pool.connect();
    try {
      await runPostgresMigrations(client, schema.schema, migrationsBefore(POSTGRES_MIGRATIONS, 'backfill:companies'));
      for (const r of rows) await client.query(`${INSERT} ($1, $2, true, $3, $4, $5, $6, $7, $8)`, r);
    } finally {
      client.release();
    }
    return {
      open: () => openPostgresStore(schema.url, { poolSize: 2 }),
      pending: async () => (await pool.query('SELECT 1 FROM meta WHERE key = $1', [COMPANY_BACKFILL_KEY])).rowCount !== 0,
      cleanup: async () => {
        await pool.end();
        await schema.drop();
      },
    };
  },
};

describe.each(storesToTest())('company list backfill on %s', (adapter) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const c of cleanups) await c();
  });

  it('lists every company stored before, once, from its JSON', async () => {
    const old = await OLD_STORES[adapter]!();
    cleanups.push(old.cleanup);
    const store = await old.open();
    try {
      const page = await store.listCompanies(P, { order: 'asc' }, undefined, N + 10);
      expect(page.map((c) => c.key)).toEqual(specs.map((s) => recordKey(s.id)));
      page.forEach((c, i) => {
        expect(c.body?.toString()).toBe(JSON.stringify(summaryOfSpec(specs[i]!)));
        // Summaries of companies stored with gzip pieces get pieces of their own.
        expect(c.deflated !== null).toBe(i % 2 === 0);
      });
      expect((await store.listCompanies(P, { order: 'desc', q: 'societe' }, undefined, 10)).map((c) => c.key)).toEqual([recordKey(specs[7]!.id)]);
      expect((await store.listCompanies(P, { order: 'desc', q: 'hrb5001' }, undefined, 10)).map((c) => c.key)).toEqual([recordKey(specs[500]!.id)]);
      expect(await store.listCompanies(P, { order: 'desc', statuses: ['Dormant'] }, undefined, N)).toHaveLength(Math.floor(N / 2));
      expect((await store.listCompanies('proj-b', { order: 'desc' }, undefined, 10)).map((c) => c.key)).toEqual([recordKey(OTHER.id)]);
      expect(await old.pending()).toBe(false);
    } finally {
      await store.close();
    }
  });
});
