/**
 * The upgrade that added the change feed: a store holding records written through the schema
 * before it gains one entry per record when it next opens to write, in chunks, exactly once.
 */
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import type { Change } from '../../src/contract/change.js';
import { recordKey } from '../../src/contract/record-key.js';
import { BACKFILL_CHUNK, BACKFILL_META_KEY } from '../../src/store/changes-backfill.js';
import { POSTGRES_MIGRATIONS } from '../../src/store/postgres/migrations.js';
import { migrationName } from '../../src/store/schema-migrations.js';
import { SQLITE_MIGRATIONS } from '../../src/store/sqlite/migrations.js';
import { SQLITE_ACCESS_LOG_RECORDS_BEFORE_BITS } from '../support/migrations.js';
import type { Store } from '../../src/store/store.js';
import { feedSettled, importLines, plainCustomerLine } from '../support/changes-feed.js';
import { alertLine, executionLine } from '../support/records.js';
import { storeHarnesses, type Harness } from '../support/store-harness.js';
import { customer, day } from '../support/upserts.js';

const P = 'backfill-p';
const COMPANY = 'ABCDEF00-3D1F-4A6B-9C8D-7E6F5A4B3C2D';
const PERSON = '0a5c2a4e-3d1f-4a6b-9c8d-7e6f5a4b3c2d';
const ALERT = '0b5c2a4e-3d1f-4a6b-9c8d-7e6f5a4b3c2d';
/** The migration that added the change feed, in each store's list. */
const SQLITE_FEED_MIGRATION = 7;
const POSTGRES_FEED_MIGRATION = 9;

/** Takes the store back to the schema before the feed: its table, sequence and migration record gone. */
async function dropFeed(h: Harness): Promise<void> {
  if (h.name === 'sqlite') {
    const db = new Database(h.url);
    // The migrations after the feed's (erasure, the access log's rows of bits) go too: they are applied again on open.
    db.exec(`DROP TABLE changes; DROP TABLE erasures; DROP TABLE file_deletions; ${SQLITE_ACCESS_LOG_RECORDS_BEFORE_BITS}`);
    for (let v = SQLITE_FEED_MIGRATION; v <= SQLITE_MIGRATIONS.length; v++) db.prepare('DELETE FROM kysely_migration WHERE name = ?').run(migrationName(v));
    db.close();
    return;
  }
  const client = new pg.Client({ connectionString: h.url });
  await client.connect();
  // Likewise the erasure tables, and the per-record table of the access log goes back to the shape the bitmaps' migration folds.
  await client.query(`DROP TABLE changes; DROP SEQUENCE changes_seq; DROP TABLE erasures; DROP TABLE file_deletions;
    DROP TABLE access_log_records; CREATE TABLE access_log_records (project text COLLATE "C" NOT NULL, bucket bigint NOT NULL,
      record_hash bigint NOT NULL, batch_id bigint NOT NULL, PRIMARY KEY (project, bucket, record_hash, batch_id))`);
  for (let v = POSTGRES_FEED_MIGRATION; v <= POSTGRES_MIGRATIONS.length; v++) await client.query('DELETE FROM kysely_migration WHERE name = $1', [migrationName(v)]);
  await client.end();
}

async function wholeFeed(store: Store): Promise<{ change: Change; seq: string }[]> {
  const out: { change: Change; seq: string }[] = [];
  let after;
  for (;;) {
    const page = await store.listChanges(P, after, 1000);
    if (page.length === 0) return out;
    for (const c of page) out.push({ change: JSON.parse(c.body!.toString('utf8')) as Change, seq: c.position.seq });
    after = page[page.length - 1]!.position;
  }
}

const opened: Store[] = [];
const harnesses: Harness[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
  for (const h of harnesses.splice(0)) await h.cleanup();
});

describe.each(storeHarnesses())('$adapter: the change feed upgrade', ({ make }) => {
  it('adds one entry per record stored before it, in chunks, once', async () => {
    const h = make();
    harnesses.push(h);
    const before = await h.open();
    await importLines(before, [plainCustomerLine(P, COMPANY, 'Company'), plainCustomerLine(P, PERSON, 'Individual'), alertLine(P, ALERT, PERSON, '0c5c2a4e-3d1f-4a6b-9c8d-7e6f5a4b3c2d'), executionLine(P, PERSON, 3)]);
    // More customers than one chunk holds; their stored JSON has no id, so their key stands for it.
    const many = Array.from({ length: BACKFILL_CHUNK + 37 }, (_, i) => customer(P, `bulk-${String(i).padStart(4, '0')}`, day(1)));
    await before.writeBatch(many);
    await before.close();
    await dropFeed(h);

    const store = await h.open();
    opened.push(store);
    await feedSettled(h.url);
    const feed = await wholeFeed(store);
    expect(feed).toHaveLength(4 + many.length);
    const byId = new Map(feed.map((f) => [f.change.id, f.change]));
    expect(byId.size).toBe(feed.length);
    // The id as written, its letter case kept from the stored JSON.
    expect(byId.get(COMPANY)).toMatchObject({ kind: 'company', customerId: null, operation: 'upsert', etag: (await store.getCompany(P, recordKey(COMPANY)))!.etag });
    expect(byId.get(PERSON)).toMatchObject({ kind: 'customer', customerId: null });
    expect(byId.get(ALERT)).toMatchObject({ kind: 'alert', customerId: PERSON, etag: (await store.getAlert(P, ALERT))!.etag });
    expect(byId.get('exec-0003')).toMatchObject({ kind: 'execution', customerId: PERSON });
    expect(byId.get('bulk-0000')).toMatchObject({ kind: 'company', etag: many[0]!.etag });

    // Opening again adds nothing and moves nothing.
    await store.close();
    opened.pop();
    const again = await h.open();
    opened.push(again);
    await feedSettled(h.url);
    expect(await wholeFeed(again)).toEqual(feed);
    // And the pending mark is gone.
    expect(await pendingMark(h)).toBe(false);
  });
});

async function pendingMark(h: Harness): Promise<boolean> {
  if (h.name === 'sqlite') {
    const db = new Database(h.url, { readonly: true });
    try {
      return db.prepare('SELECT 1 FROM meta WHERE key = ?').get(BACKFILL_META_KEY) !== undefined;
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: h.url });
  await client.connect();
  try {
    return (await client.query('SELECT 1 FROM meta WHERE key = $1', [BACKFILL_META_KEY])).rowCount === 1;
  } finally {
    await client.end();
  }
}
