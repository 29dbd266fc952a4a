import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { accessLogEntry } from '../../support/access-log-entries.js';
import type { AccessLogEntry } from '../../../src/access-log/access-log.js';
import { catchUpAccessLog, indexAccessLog } from '../../../src/store/sqlite/access-log-rows.js';
import { addMigrationFunctions, SQLITE_MIGRATIONS } from '../../../src/store/sqlite/migrations.js';
import { openSqliteStore, type SqliteStore } from '../../../src/store/sqlite/sqlite-store.js';
import { BATCHES_PER_BUCKET, batchesOf } from '../../../src/access-log/batches.js';
import { migrationsBefore } from '../../support/migrations.js';

const R = 'b60ddc19-889c-4558-b23a-fa4bb2737124';
const entry = (minute: number, recordId: string | null, project = 'proj-a'): AccessLogEntry => accessLogEntry(minute, recordId, project);

let dir: string | undefined;
let store: SqliteStore | undefined;
afterEach(async () => {
  await store?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the access log in batches', () => {
  it('finds a record’s reads whether or not the index has caught up with them, in time order', async () => {
    dir = mkdtempSync(join(tmpdir(), 'crs-al-'));
    const file = join(dir, 'store.db');
    store = await openSqliteStore(file);
    await store.appendAccessLog(batchesOf([entry(5, R), entry(1, 'other'), entry(3, R), entry(2, R, 'proj-b')]));
    const writer = new Database(file);
    expect(indexAccessLog(writer)).toBe(2); // one batch per project
    expect(indexAccessLog(writer)).toBe(0);
    await store.appendAccessLog(batchesOf([entry(4, R), entry(6, null), entry(0, R)])); // the tail, not indexed yet
    const minutes = async (q: { since?: string; until?: string } = {}) =>
      (await store!.queryAccessLog({ project: 'proj-a', recordId: R, limit: 100, ...q })).map((e) => Number(e.at.slice(14, 16)));
    expect(await minutes()).toEqual([0, 3, 4, 5]);
    expect(await minutes({ since: '2026-03-01T10:03:00.000Z', until: '2026-03-01T10:05:00.000Z' })).toEqual([3, 4]);
    expect(indexAccessLog(writer)).toBe(1);
    expect(await minutes()).toEqual([0, 3, 4, 5]);
    // One row per record and word of batches: R's in proj-a names both of its batches, then "other", then R in proj-b.
    expect(writer.prepare('SELECT count(*) AS n FROM access_log_records').get()).toEqual({ n: 3 });
    // Another project's read of the same id stays in that project.
    expect((await store.queryAccessLog({ project: 'proj-b', recordId: R, limit: 100 })).map((e) => e.requestId)).toEqual(['r-proj-b-2']);
    writer.close();
  });

  it('finds a list answer’s entry by any record it returned, before the index has caught up with its batch and after', async () => {
    dir = mkdtempSync(join(tmpdir(), 'crs-al-'));
    const file = join(dir, 'store.db');
    store = await openSqliteStore(file);
    const returned = ['e-1', 'e-2', R];
    await store.appendAccessLog(batchesOf([{ ...entry(1, 'customer-1'), records: returned }, entry(2, 'e-2'), entry(3, 'other')]));
    const writer = new Database(file);
    expect(writer.prepare('SELECT indexed FROM access_log_batches').pluck().all()).toEqual([0]); // scanned, not looked up
    const found = async (recordId: string) => (await store!.queryAccessLog({ project: 'proj-a', recordId, limit: 100 })).map((e) => [e.requestId, e.records]);
    const expected = {
      'e-1': [['r-proj-a-1', returned]],
      'e-2': [
        ['r-proj-a-1', returned],
        ['r-proj-a-2', undefined],
      ],
      [R]: [['r-proj-a-1', returned]],
      'customer-1': [['r-proj-a-1', returned]],
      'e-3': [],
    };
    for (const [id, want] of Object.entries(expected)) expect(await found(id), id).toEqual(want);
    expect(indexAccessLog(writer)).toBe(1);
    expect(writer.prepare('SELECT record_id FROM access_log_records ORDER BY 1').pluck().all()).toEqual(['customer-1', 'e-1', 'e-2', 'other', R].sort());
    for (const [id, want] of Object.entries(expected)) expect(await found(id), id).toEqual(want);
    writer.close();
  });

  it('prunes whole caught-up batches older than a cutoff with their per-record rows and emptied buckets, and nothing newer', async () => {
    dir = mkdtempSync(join(tmpdir(), 'crs-al-'));
    const file = join(dir, 'store.db');
    store = await openSqliteStore(file);
    const n = BATCHES_PER_BUCKET + 10;
    for (let i = 0; i < n; i++) await store.appendAccessLog(batchesOf([{ ...entry(i % 60, `r-${i % 7}`), at: `2020-01-01T00:00:${String(i % 60).padStart(2, '0')}.000Z`, requestId: `old-${i}` }]));
    await store.appendAccessLog(batchesOf([entry(1, 'r-1'), entry(2, 'r-new')]));
    await store.appendAccessLog(batchesOf([{ ...entry(3, 'r-2'), at: '2020-01-01T00:00:00.000Z' }]));
    const writer = new Database(file);
    indexAccessLog(writer);
    await store.appendAccessLog(batchesOf([{ ...entry(3, 'r-3'), at: '2020-01-01T00:00:00.000Z' }])); // not caught up yet: stays for later
    const count = (table: string): unknown => (writer.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    expect(count('access_log_buckets')).toBe(2);
    let pruned = 0;
    for (let r = await store.pruneAccessLog('2021-01-01T00:00:00.000Z', 100); r.batches > 0; r = await store.pruneAccessLog('2021-01-01T00:00:00.000Z', 100)) pruned += r.batches;
    expect(pruned).toBe(n + 1);
    expect(count('access_log_batches')).toBe(2); // the new one, and the one not caught up yet
    expect(writer.prepare('SELECT record_id FROM access_log_records ORDER BY 1').pluck().all()).toEqual(['r-1', 'r-new']);
    expect(count('access_log_buckets')).toBe(1);
    expect((await store.queryAccessLog({ project: 'proj-a', recordId: 'r-1', limit: 10 })).map((e) => e.requestId)).toEqual(['r-proj-a-1']);
    writer.close();
  });

  it('finds a record’s reads in every bucket of the per-record table', async () => {
    dir = mkdtempSync(join(tmpdir(), 'crs-al-'));
    const file = join(dir, 'store.db');
    store = await openSqliteStore(file);
    const n = 2 * BATCHES_PER_BUCKET + 10;
    for (let i = 0; i < n; i++) await store.appendAccessLog(batchesOf([{ ...entry(i % 60, i % 100 === 0 ? R : `other-${i}`), requestId: `q-${i}` }]));
    const writer = new Database(file);
    expect(indexAccessLog(writer)).toBe(n);
    expect(writer.prepare('SELECT count(*) AS n FROM access_log_buckets').get()).toEqual({ n: 3 });
    writer.close();
    const found = (await store.queryAccessLog({ project: 'proj-a', recordId: R, limit: 100 })).map((e) => e.requestId);
    expect(found.sort()).toEqual(['q-0', 'q-100', 'q-200', 'q-300', 'q-400', 'q-500']);
  });

  it('names a record in each batch that read it, at every bit of its rows, across catch-ups and after a prune', async () => {
    dir = mkdtempSync(join(tmpdir(), 'crs-al-'));
    const file = join(dir, 'store.db');
    store = await openSqliteStore(file);
    const writer = new Database(file);
    // Every batch reads R: the run covers every bit of a word (the 64th is SQLite's sign bit) and
    // two buckets; caught up in two parts that share a word, so the second ORs into rows of the first.
    const n = BATCHES_PER_BUCKET + 100;
    const at = (i: number): string => `2020-01-01T00:${String(Math.floor(i / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}.000Z`;
    const write = async (from: number, to: number): Promise<void> => {
      for (let i = from; i < to; i++) await store!.appendAccessLog(batchesOf([{ ...entry(0, R), at: at(i), requestId: `q-${i}` }, { ...entry(0, `only-${i}`), at: at(i) }]));
    };
    await write(0, 150);
    expect(indexAccessLog(writer)).toBe(150);
    await write(150, n);
    expect(indexAccessLog(writer)).toBe(n - 150);
    const found = async (): Promise<string[]> => (await store!.queryAccessLog({ project: 'proj-a', recordId: R, limit: 1000 })).map((e) => e.requestId);
    expect(await found()).toEqual(Array.from({ length: n }, (_, i) => `q-${i}`));
    const rowsOf = (record: string): unknown => writer.prepare('SELECT count(*) FROM access_log_records WHERE record_id = ?').pluck().get(record);
    // A row per word of a bucket holding any of the batches (ids from 1).
    const words = (first: number, last: number): number => new Set(Array.from({ length: last - first + 1 }, (_, i) => `${Math.floor((first + i) / BATCHES_PER_BUCKET)}:${Math.floor(((first + i) % BATCHES_PER_BUCKET) / 64)}`)).size;
    expect(rowsOf(R)).toBe(words(1, n));
    expect((await store.queryAccessLog({ project: 'proj-a', recordId: 'only-63', limit: 10 })).length).toBe(1);
    // Pruning the first 200 batches clears their bits, and rows left with none go.
    expect(await store.pruneAccessLog(at(200), 1000)).toEqual({ batches: 200, entries: 400 });
    expect(await found()).toEqual(Array.from({ length: n - 200 }, (_, i) => `q-${i + 200}`));
    expect(rowsOf('only-10')).toBe(0);
    expect(rowsOf(R)).toBe(words(201, n));
    writer.close();
  });

  it('checkpoints the file after each catch-up, which the serving connection leaves to it', async () => {
    dir = mkdtempSync(join(tmpdir(), 'crs-al-'));
    const file = join(dir, 'store.db');
    store = await openSqliteStore(file);
    expect(store.db.pragma('wal_autocheckpoint', { simple: true })).toBe(16384);
    store.db.pragma('wal_checkpoint(TRUNCATE)'); // the schema into the file
    await store.appendAccessLog(batchesOf([entry(1, R), entry(2, 'other')]));
    // A copy of the database file alone, without its write-ahead log: what has been checkpointed.
    const inFile = (): unknown => {
      const copy = join(dir!, 'file-only.db');
      copyFileSync(file, copy);
      const direct = new Database(copy, { readonly: true });
      try {
        return direct.prepare('SELECT count(*) AS n FROM access_log_batches').get();
      } finally {
        direct.close();
        rmSync(copy);
      }
    };
    expect(inFile()).toEqual({ n: 0 });
    const worker = new Database(file);
    expect(catchUpAccessLog(worker)).toBe(1);
    worker.close();
    expect(inFile()).toEqual({ n: 1 });
  });

  it('moves the reads of a file made before batches existed into them when the file is migrated', async () => {
    dir = mkdtempSync(join(tmpdir(), 'crs-al-'));
    const file = join(dir, 'store.db');
    const old = new Database(file);
    for (const [v, sql] of SQLITE_MIGRATIONS.slice(0, 2).entries()) {
      old.exec(sql);
      old.pragma(`user_version = ${v + 1}`);
    }
    const row = old.prepare('INSERT INTO access_log (at, key_id, project, route, record_id, status, request_id, client) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
    for (const e of [entry(2, R), entry(1, R), entry(3, 'other'), entry(4, R, 'proj-b')]) row.run(e.at, e.keyId, e.project, e.route, e.recordId, e.status, e.requestId, e.client);
    old.close();
    store = await openSqliteStore(file);
    expect((await store.queryAccessLog({ project: 'proj-a', recordId: R, limit: 100 })).map((e) => e.requestId)).toEqual(['r-proj-a-1', 'r-proj-a-2']);
    expect(await store.queryAccessLog({ project: 'proj-a', limit: 100 })).toEqual([entry(1, R), entry(2, R), entry(3, 'other')]);
    const db = new Database(file);
    expect(indexAccessLog(db)).toBe(2); // a batch per project, indexed by the worker's next catch-up
    db.close();
    expect((await store.queryAccessLog({ project: 'proj-b', recordId: R, limit: 100 })).map((e) => e.requestId)).toEqual(['r-proj-b-4']);
  });

  it('keeps the batches each record was read in when a file with a row per record and batch is migrated to rows of bits', async () => {
    dir = mkdtempSync(join(tmpdir(), 'crs-al-'));
    const file = join(dir, 'store.db');
    const old = new Database(file);
    addMigrationFunctions(old);
    for (const [v, sql] of migrationsBefore(SQLITE_MIGRATIONS, 'CREATE TABLE access_log_record_bits').entries()) {
      old.exec(sql);
      old.pragma(`user_version = ${v + 1}`);
    }
    // Batch ids 1..300, each read R; the earlier layout's rows, as its catch-up wrote them.
    const batch = old.prepare("INSERT INTO access_log_batches (id, project, first_at, last_at, entries, records, indexed) VALUES (?, 'proj-a', ?, ?, ?, ?, 1)");
    const row = old.prepare("INSERT INTO access_log_records (project, bucket, record_id, batch_id) VALUES ('proj-a', ?, ?, ?)");
    const bucket = old.prepare("INSERT OR IGNORE INTO access_log_buckets (project, bucket) VALUES ('proj-a', ?)");
    for (let id = 1; id <= 300; id++) {
      const e = { ...entry(0, R), requestId: `q-${id}` };
      batch.run(id, e.at, e.at, JSON.stringify([[e.at, e.keyId, e.route, e.recordId, e.status, e.requestId, e.client]]), JSON.stringify([R]));
      row.run(Math.floor(id / 256), R, id);
      bucket.run(Math.floor(id / 256));
    }
    old.close();
    store = await openSqliteStore(file);
    const found = (await store.queryAccessLog({ project: 'proj-a', recordId: R, limit: 1000 })).map((e) => e.requestId);
    expect(found.sort()).toEqual(Array.from({ length: 300 }, (_, i) => `q-${i + 1}`).sort());
    expect(store.db.prepare('SELECT count(*) FROM access_log_records').pluck().get()).toBe(5); // words 0-3 of bucket 0, word 0 of bucket 1
  });

  it('writes and prunes on its own thread while another connection holds the write lock: reads go on, and the write lands once the lock is let go', async () => {
    dir = mkdtempSync(join(tmpdir(), 'crs-al-'));
    const file = join(dir, 'store.db');
    store = await openSqliteStore(file);
    const importer = new Database(file);
    importer.prepare('BEGIN IMMEDIATE').run(); // as an import's transaction would
    let written = false;
    const write = store.appendAccessLog(batchesOf([entry(1, R)])).then(() => (written = true));
    // Retention's deletes go the same way: they wait there too rather than fail.
    const pruned = store.pruneAccessLog('2021-01-01T00:00:00.000Z', 10);
    await new Promise((r) => setTimeout(r, 200));
    // Waiting on its own thread, not failed (the serving connection's write used to fail at once),
    // while this thread still answers.
    expect(await store.queryAccessLog({ project: 'proj-a', limit: 10 })).toEqual([]);
    expect(written).toBe(false);
    importer.prepare('COMMIT').run();
    importer.close();
    await write;
    expect(await pruned).toEqual({ batches: 0, entries: 0 });
    expect(await store.queryAccessLog({ project: 'proj-a', limit: 10 })).toEqual([entry(1, R)]);
  });
});
