/**
 * The alert list in each store: a page is one index range scan in sort order (read from the
 * query plans), and alerts stored before the list existed gain their listing when the store opens.
 */
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import type { Alert } from '../../src/contract/alert.js';
import { alertSummaryOf } from '../../src/contract/alert-summary.js';
import { processLine } from '../../src/ingest/process-line.js';
import { alertCountQuery, alertPageQuery, POSTGRES_ALERT_PAGE, SQLITE_ALERT_PAGE } from '../../src/store/alert-page-sql.js';
import { ALERT_LISTING_COLUMNS } from '../../src/store/alert-listing-columns.js';
import { BACKFILL_CHUNK_ROWS, BACKFILL_FLAG } from '../../src/store/alert-listing-backfill.js';
import { POSTGRES_MIGRATIONS } from '../../src/store/postgres/migrations.js';
import type { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { SQLITE_MIGRATIONS } from '../../src/store/sqlite/migrations.js';
import { migrationsBefore } from '../support/migrations.js';
import type { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { AlertCountFilter, AlertFilter, AlertUpsert, Store, StoreRow } from '../../src/store/store.js';
import { fieldsFor } from '../../src/wire/render.js';
import { adminQuery, afterOtherSnapshots } from '../support/postgres-admin.js';
import { listedAlert, listedAlertLine, LIST_CUSTOMERS, type ListedAlert } from '../support/alert-list-records.js';
import { storeHarnesses, type Harness } from '../support/store-harness.js';

const GZIP = fieldsFor('gzip');

/** The store write of a listed alert, as the import prepares it; `gzipLevel` null stores no deflate pieces. */
function upsertOf(a: ListedAlert, gzipLevel: number | null = 6): AlertUpsert {
  const r = processLine(Buffer.from(listedAlertLine(a)), gzipLevel);
  if (r.kind !== 'record' || r.upsert.kind !== 'alert') throw new Error('the alert did not validate');
  return r.upsert;
}

/** The query plan of a page query, as lines of text. */
async function plan(store: Store, filter: AlertFilter, after = false): Promise<string[]> {
  const position = after ? { sortKey: '2024-05-01T00:10:00Z', alertKey: 'k' } : undefined;
  if (store.dialect === 'sqlite') {
    const q = alertPageQuery('p', filter, position, 51, SQLITE_ALERT_PAGE, GZIP);
    return ((store as SqliteStore).db.prepare(`EXPLAIN QUERY PLAN ${q.sql}`).all(...q.params) as { detail: string }[]).map((r) => r.detail);
  }
  const q = alertPageQuery('p', filter, position, 51, POSTGRES_ALERT_PAGE, GZIP);
  const client = await (store as PostgresStore).pool.connect();
  try {
    // The table is small: without this a sequential scan and a sort would be cheapest.
    await client.query('SET enable_seqscan = off');
    const r = await client.query<{ 'QUERY PLAN': string }>({ text: `EXPLAIN ${q.sql}`, values: q.params });
    return r.rows.map((row) => row['QUERY PLAN']);
  } finally {
    await client.query('RESET enable_seqscan');
    client.release();
  }
}

/** The query plan of a count query, as lines of text. */
async function countPlan(store: Store, filter: AlertCountFilter): Promise<string[]> {
  if (store.dialect === 'sqlite') {
    const q = alertCountQuery('p', filter, SQLITE_ALERT_PAGE);
    return ((store as SqliteStore).db.prepare(`EXPLAIN QUERY PLAN ${q.sql}`).all(...q.params) as { detail: string }[]).map((r) => r.detail);
  }
  const q = alertCountQuery('p', filter, POSTGRES_ALERT_PAGE);
  const client = await (store as PostgresStore).pool.connect();
  try {
    await client.query('SET enable_seqscan = off');
    // Fresh rows are not all-visible until vacuumed: the planner would not pick an index-only scan.
    await afterOtherSnapshots(async () => {
      await client.query('VACUUM ANALYZE alerts');
      const visible = await client.query<{ all: boolean }>("SELECT relallvisible >= relpages AS all FROM pg_class WHERE oid = 'alerts'::regclass");
      return visible.rows[0]?.all === true;
    });
    const r = await client.query<{ 'QUERY PLAN': string }>({ text: `EXPLAIN ${q.sql}`, values: q.params });
    return r.rows.map((row) => row['QUERY PLAN']);
  } finally {
    await client.query('RESET enable_seqscan');
    client.release();
  }
}

/** The index a plan scans, and whether it sorts. */
function scanOf(lines: string[]): { index: string | undefined; sorts: boolean } {
  const text = lines.join('\n');
  const index = /USING (?:COVERING )?INDEX (\w+)/.exec(text)?.[1] ?? /Index (?:Only )?Scan(?: Backward)? using (\w+)/.exec(text)?.[1];
  return { index, sorts: /TEMP B-TREE|Sort/.test(text) };
}

describe.each(storeHarnesses())('$adapter alert list', ({ make }) => {
  const harnesses: Harness[] = [];
  afterAll(async () => {
    for (const h of harnesses) await h.cleanup();
  });
  const fresh = (): Harness => {
    const h = make();
    harnesses.push(h);
    return h;
  };

  it('reads a page as one range scan of the sort\'s index, without a sort step', async () => {
    const store = await fresh().open();
    try {
      await store.writeBatch(Array.from({ length: 40 }, (_, i) => upsertOf(listedAlert('p', 1, i))));
      const cases: [AlertFilter, string][] = [
        [{ sort: 'updatedAt', order: 'desc' }, 'alerts_by_updated'],
        [{ sort: 'updatedAt', order: 'asc' }, 'alerts_by_updated'],
        [{ sort: 'createdAt', order: 'desc' }, 'alerts_by_created'],
        [{ sort: 'updatedAt', order: 'desc', customerKey: LIST_CUSTOMERS[0]! }, 'alerts_by_customer'],
        [{ sort: 'createdAt', order: 'asc', customerKey: LIST_CUSTOMERS[0]! }, 'alerts_by_customer_created'],
        [{ sort: 'updatedAt', order: 'desc', statuses: ['Closed', 'Open'], seen: false, assignedTo: null }, 'alerts_by_updated'],
      ];
      for (const [filter, index] of cases) {
        for (const after of [false, true]) {
          const scan = scanOf(await plan(store, filter, after));
          expect(scan, JSON.stringify(filter)).toEqual({ index, sorts: false });
        }
      }
    } finally {
      await store.close();
    }
  });

  it('counts by status from an index that carries every filter column, never reading the table\'s rows', async () => {
    const store = await fresh().open();
    try {
      const items = Array.from({ length: 40 }, (_, i) => listedAlert('p', 1, i));
      await store.writeBatch(items.map((a) => upsertOf(a)));
      const cases: AlertCountFilter[] = [
        {},
        { customerKey: LIST_CUSTOMERS[0]! },
        { severities: ['High', 'Low'], seen: false, assignedTo: null },
        { createdFrom: '2024-05-01T00:05:00Z', updatedTo: '2024-05-01T00:40:00Z', types: ['Screening'] },
      ];
      for (const filter of cases) {
        const text = (await countPlan(store, filter)).join('\n');
        // A covering index (SQLite) or an index-only scan (PostgreSQL) over one of the list's indexes.
        expect(text, JSON.stringify(filter)).toMatch(/USING COVERING INDEX alerts_by_\w+|Index Only Scan using alerts_by_\w+/);
      }
      const byStatus = await store.countAlerts('p', { severities: ['High'] });
      const high = items.filter((a) => a.record.severity === 'High');
      expect(Object.fromEntries(byStatus)).toEqual(Object.fromEntries([...new Set(high.map((a) => a.record.status))].map((s) => [s, high.filter((a) => a.record.status === s).length])));
      expect(await store.countAlerts('other', {})).toEqual(new Map());
    } finally {
      await store.close();
    }
  }, 150_000);

  it('gives alerts stored before the list existed their listing when the store opens, once, in chunks', async () => {
    const h = fresh();
    await h.create();
    const count = BACKFILL_CHUNK_ROWS + 20;
    const items = Array.from({ length: count }, (_, i) => listedAlert(i % 2 === 0 ? 'old-a' : 'old-b', 3, i % 256, Math.floor(i / 256)));
    // Distinct ids: the version makes a later alert of the same number another alert here.
    const olds = items.map((a, i) => ({ ...a, record: { ...a.record, id: `${a.record.id.slice(0, 24)}${i.toString(16).padStart(12, '0')}` } }));
    const upserts = olds.map((a, i) => upsertOf(a, i === 1 ? null : 6));
    await writeThroughOldSchema(h, upserts);
    const store = await h.open();
    try {
      for (const project of ['old-a', 'old-b']) {
        const mine = olds.filter((a) => a.record.cmsProjectId === project);
        const rows = await store.listAlerts(project, { sort: 'createdAt', order: 'asc' }, undefined, 1000);
        const expected = [...mine].sort((a, b) => a.createdMs - b.createdMs || (a.record.id < b.record.id ? -1 : 1));
        expect(rows.map((r) => r.alertKey)).toEqual(expected.map((a) => a.record.id));
        rows.forEach((r, i) => expect(r.body!.toString('utf8')).toBe(JSON.stringify(alertSummaryOf(expected[i]!.record as unknown as Alert))));
      }
      const filtered = await store.listAlerts('old-a', { sort: 'updatedAt', order: 'desc', seen: true, severities: ['High'] }, undefined, 1000);
      const keep = olds.filter((a) => a.record.cmsProjectId === 'old-a' && a.record.seen && a.record.severity === 'High');
      expect(filtered.map((r) => r.alertKey).sort()).toEqual(keep.map((a) => a.record.id).sort());
      // The alert stored without deflate pieces got a summary without them; the others with.
      const all = await store.listAlerts('old-b', { sort: 'updatedAt', order: 'asc' }, undefined, 1000);
      expect(all.find((r) => r.alertKey === olds[1]!.record.id)!.deflated).toBeNull();
      expect(all.filter((r) => r.deflated !== null)).toHaveLength(all.length - 1);
      expect(await flagged(h, store)).toBe(false);
    } finally {
      await store.close();
    }
  });

  it('exports an alert whose listing columns are empty with its listing computed from its JSON', async () => {
    const store = await fresh().open();
    try {
      const a = upsertOf(listedAlert('p', 4, 5));
      await store.writeBatch([a]);
      const clear = `UPDATE alerts SET ${ALERT_LISTING_COLUMNS.map((c) => `${c} = NULL`).join(', ')}`;
      if (store.dialect === 'sqlite') (store as SqliteStore).db.exec(clear);
      else await (store as PostgresStore).pool.query(clear);
      const rows: StoreRow[] = [];
      for await (const chunk of store.exportRows(10)) rows.push(...chunk);
      // The record's own id and customer are the feed's, not exported with the row (its change feed entry carries them).
      const { id: _id, customerId: _customerId, ...stored } = a;
      expect(rows.filter((r) => r.kind === 'alert')).toEqual([stored]);
    } finally {
      await store.close();
    }
  });
});

/** Whether the store still asks for the backfill. */
async function flagged(h: Harness, store: Store): Promise<boolean> {
  if (h.name === 'sqlite') return (store as SqliteStore).db.prepare('SELECT 1 FROM meta WHERE key = ?').get(BACKFILL_FLAG) !== undefined;
  return (await (store as PostgresStore).pool.query('SELECT 1 FROM meta WHERE key = $1', [BACKFILL_FLAG])).rows.length > 0;
}

/** The store as the build before the alert list left it (the migrations before the one adding it), holding `alerts` in its old columns. */
async function writeThroughOldSchema(h: Harness, alerts: AlertUpsert[]): Promise<void> {
  const values = (a: AlertUpsert): unknown[] => [a.project, a.key, a.versionKey, a.etag, a.body, a.layout, a.deflated];
  const insert = 'INSERT INTO alerts (project, alert_key, version_key, etag, body, wire, gz) VALUES';
  if (h.name === 'sqlite') {
    const db = new Database(h.url);
    try {
      const old = migrationsBefore(SQLITE_MIGRATIONS, 'alert_listing_backfill');
      for (const text of old) db.exec(text);
      db.pragma(`user_version = ${old.length}`);
      db.prepare("INSERT INTO meta (key, value) VALUES ('secret', ?)").run(Buffer.alloc(32, 7));
      const stmt = db.prepare(`${insert} (?, ?, ?, ?, ?, ?, ?)`);
      db.transaction(() => alerts.forEach((a) => stmt.run(...values(a))))();
    } finally {
      db.close();
    }
    return;
  }
  const schema = /search_path%3D(\w+)/.exec(h.url)![1]!;
  const old = migrationsBefore(POSTGRES_MIGRATIONS, 'alert_listing_backfill');
  await adminQuery(`SET search_path = ${schema}; ${old.join(';\n')};
    CREATE TABLE schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now());
    INSERT INTO schema_migrations (version) SELECT generate_series(1, ${old.length});`);
  const client = new pg.Client({ connectionString: h.url });
  await client.connect();
  try {
    for (const a of alerts) await client.query(`${insert} ($1, $2, $3, $4, $5, $6, $7)`, values(a));
  } finally {
    await client.end();
  }
}
