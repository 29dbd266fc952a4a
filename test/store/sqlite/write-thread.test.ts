/** The serving SQLite store's writes on a thread of their own: the same outcomes, bytes and erasures, and reads answered while a write waits for the file's lock. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { ALL_FIELDS } from '../../../src/wire/record-bytes.js';
import { openSqliteStore, type SqliteStore } from '../../../src/store/sqlite/sqlite-store.js';
import { recordKey } from '../../../src/contract/record-key.js';
import { importLines } from '../../support/changes-feed.js';
import { personalHistory } from '../../support/erasure-records.js';
import { alert, customer, day, execution, newProject } from '../../support/upserts.js';

const CUSTOMER = 'c0ffee00-3d1f-4a6b-9c8d-7e6f5a4b3c2d';

let dir: string;
const opened: { close(): Promise<void> }[] = [];

async function open(name: string, readThread: boolean): Promise<SqliteStore> {
  const store = await openSqliteStore(join(dir, name), { readThread });
  opened.push(store);
  return store;
}

afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('writes of the serving SQLite store on the write thread', () => {
  it("gives the outcomes and stores the bytes the store's own connection does", async () => {
    dir = mkdtempSync(join(tmpdir(), 'crs-wt-'));
    const threaded = await open('threaded.db', true);
    const direct = await open('direct.db', false);
    const p = newProject();
    const batches = [
      [customer(p, 'c1', day(2)), alert(p, 'a1', day(2)), execution(p, 'c1', 'e1', day(2))],
      // Again, an older version and a newer one.
      [customer(p, 'c1', day(2)), alert(p, 'a1', day(1), 'older'), customer(p, 'c2', day(3), false)],
    ];
    for (const batch of batches) expect(await threaded.writeBatch(batch)).toEqual(await direct.writeBatch(batch));
    expect(await threaded.writeBatch([customer(p, 'c1', day(4), true, 'newer')])).toEqual(['stored']);
    expect(await direct.writeBatch([customer(p, 'c1', day(4), true, 'newer')])).toEqual(['stored']);
    for (const read of [(s: SqliteStore) => s.getCompany(p, 'c1', ALL_FIELDS), (s: SqliteStore) => s.getAlert(p, 'a1', ALL_FIELDS)]) {
      const [t, d] = [await read(threaded), await read(direct)];
      expect(t).toBeDefined();
      expect(t).toEqual(d);
    }
    // The feed's items alike but for the time of each write.
    const feed = async (s: SqliteStore) =>
      (await s.listChanges(p, undefined, 100)).map((c) => ({ ...(JSON.parse(c.body!.toString()) as object), changedAt: undefined }));
    expect(await feed(threaded)).toEqual(await feed(direct));
    expect(await feed(threaded)).toHaveLength(4);
  });

  it('answers reads while a batch waits for the lock another connection holds, and writes the batch once it is released', async () => {
    dir = mkdtempSync(join(tmpdir(), 'crs-wt-'));
    const store = await open('store.db', true);
    const p = newProject();
    expect(await store.writeBatch([customer(p, 'c1', day(1))])).toEqual(['stored']);
    const other = new Database(join(dir, 'store.db'));
    try {
      other.exec('BEGIN IMMEDIATE');
      let settled = false;
      const pending = store.writeBatch([customer(p, 'c2', day(1))]);
      pending.then(
        () => (settled = true),
        () => (settled = true),
      );
      // The batch waits in the write thread (up to the busy time-out): this thread still reads.
      expect((await store.getCompany(p, 'c1', ALL_FIELDS))?.etag).toBeDefined();
      expect(await store.getCompany(p, 'c2', ALL_FIELDS)).toBeUndefined();
      expect(settled).toBe(false);
      other.exec('COMMIT');
      expect(await pending).toEqual(['stored']);
      expect((await store.getCompany(p, 'c2', ALL_FIELDS))?.etag).toBeDefined();
    } finally {
      other.close();
    }
  });

  it("erases a customer and forgets its deleted files as the store's own connection does, reads going on while the erasure waits for the lock", async () => {
    dir = mkdtempSync(join(tmpdir(), 'crs-wt-'));
    const threaded = await open('threaded.db', true);
    const direct = await open('direct.db', false);
    const p = newProject();
    for (const s of [threaded, direct]) await importLines(s, personalHistory(p, CUSTOMER, 2, 2));
    const key = recordKey(CUSTOMER);
    expect(await threaded.eraseCustomer(p, key, { dryRun: true })).toEqual(await direct.eraseCustomer(p, key, { dryRun: true }));
    const other = new Database(join(dir, 'threaded.db'));
    let erased;
    try {
      other.exec('BEGIN IMMEDIATE');
      let settled = false;
      const pending = threaded.eraseCustomer(p, key, { dryRun: false });
      pending.then(
        () => (settled = true),
        () => (settled = true),
      );
      expect((await threaded.getCompany(p, key, ALL_FIELDS))?.etag).toBeDefined();
      expect(settled).toBe(false);
      other.exec('COMMIT');
      erased = await pending;
    } finally {
      other.close();
    }
    const expected = await direct.eraseCustomer(p, key, { dryRun: false });
    expect(erased).toEqual(expected);
    expect(erased.files).toHaveLength(3);
    expect(await threaded.getCompany(p, key, ALL_FIELDS)).toBeUndefined();
    await threaded.forgetFileDeletions(erased.files);
    // Forgotten: a later erasure of the project names none of them again.
    expect((await threaded.eraseCustomer(p, key, { dryRun: false })).files).toEqual([]);
    expect((await direct.eraseCustomer(p, key, { dryRun: false })).files).toHaveLength(3);
  });
});
