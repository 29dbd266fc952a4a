/**
 * After an erasure, the customer's personal strings are nowhere in the store's bytes: not in the
 * SQLite file nor its WAL (secure_delete, FTS5 secure-delete, the checkpoint), not in PostgreSQL's
 * table, index and TOAST files after the documented maintenance step.
 */
import { existsSync, readFileSync } from 'node:fs';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { recordKey } from '../../src/contract/record-key.js';
import { ERASURE_MAINTENANCE_SQL } from '../../src/store/postgres/postgres-erasure.js';
import type { Store } from '../../src/store/store.js';
import { importLines } from '../support/changes-feed.js';
import { PERSONAL, personalHistory } from '../support/erasure-records.js';
import { afterOtherSnapshots } from '../support/postgres-admin.js';
import { storeHarnesses, type Harness } from '../support/store-harness.js';

const CUSTOMER = '5ec2e700-3d1f-4a6b-9c8d-7e6f5a4b3c2d';
/** The strings as stored in the record and as the search index keeps them (lower case). */
const STRINGS = [PERSONAL.name, PERSONAL.registration, PERSONAL.note, PERSONAL.ruleData, 'quorvandel', 'brightwater', 'qxz9917735'];

/** Which of the strings occur in the bytes, ASCII case ignored. */
function found(bytes: Buffer): string[] {
  const text = bytes.toString('latin1').toLowerCase();
  return STRINGS.filter((s) => text.includes(s.toLowerCase()));
}

/** The store's bytes: the SQLite file and its WAL, or every relation file of the PostgreSQL schema (after a checkpoint). */
async function storeBytes(h: Harness): Promise<Buffer> {
  if (h.name === 'sqlite') return Buffer.concat([h.url, `${h.url}-wal`].filter((f) => existsSync(f)).map((f) => readFileSync(f)));
  const client = new pg.Client({ connectionString: h.url });
  await client.connect();
  try {
    // Pages written since the last checkpoint may only be in shared buffers.
    await client.query('CHECKPOINT');
    const files = await client.query<{ path: string }>(
      `WITH own AS (SELECT oid, reltoastrelid FROM pg_class WHERE relnamespace = current_schema()::regnamespace),
            rels AS (SELECT oid FROM own UNION SELECT reltoastrelid FROM own WHERE reltoastrelid <> 0
                     UNION SELECT i.indexrelid FROM pg_index i JOIN own ON i.indrelid = own.reltoastrelid)
       SELECT pg_relation_filepath(oid) AS path FROM rels WHERE pg_relation_filepath(oid) IS NOT NULL`,
    );
    const parts: Buffer[] = [];
    for (const { path } of files.rows) {
      const r = await client.query<{ b: Buffer }>('SELECT pg_read_binary_file($1) AS b', [path]);
      if (r.rows[0]?.b) parts.push(r.rows[0].b);
    }
    return Buffer.concat(parts);
  } finally {
    await client.end();
  }
}

async function onPostgres(h: Harness, sql: string): Promise<void> {
  if (h.name === 'sqlite') return;
  const client = new pg.Client({ connectionString: h.url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * PostgreSQL compresses a value past about 2 KB (an alert's body), and compressed bytes hide the
 * strings from a scan: stored uncompressed here, so the scan sees every string before the erasure.
 */
const UNCOMPRESSED = ['customers', 'alerts', 'executions'].map((t) => `ALTER TABLE ${t} ALTER COLUMN body SET STORAGE EXTERNAL;`).join(' ');

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

describe.each(storeHarnesses())('$adapter: the bytes of an erased customer', ({ make }) => {
  it('are gone from the store files after the erasure (and the maintenance step)', async () => {
    const h = make();
    const store: Store = await h.open();
    cleanups.push(async () => {
      await store.close();
      await h.cleanup();
    });
    const p = 'bytes-project';
    await onPostgres(h, UNCOMPRESSED);
    await importLines(store, personalHistory(p, CUSTOMER, 40, 5));
    // The test can see them: every string is in the bytes before.
    expect(found(await storeBytes(h))).toEqual(STRINGS);

    await store.eraseCustomer(p, recordKey(CUSTOMER), { dryRun: false });
    // As docs/data-protection.md says, the maintenance step is run again once other transactions have ended.
    let left: string[] = [];
    await afterOtherSnapshots(async () => {
      await onPostgres(h, ERASURE_MAINTENANCE_SQL);
      left = found(await storeBytes(h));
      // Only PostgreSQL keeps versions for other snapshots: SQLite gets one try.
      return left.length === 0 || h.name !== 'postgres';
    });
    expect(left).toEqual([]);
  }, 120_000);
});
