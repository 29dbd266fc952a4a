/** The access log in SQLite: batch rows in, the per-record table caught up in bulk, batches out in order. */
import type Database from 'better-sqlite3';
import type { AccessLogBatch } from '../access-log.js';
import { BATCHES_PER_BUCKET } from '../access-log-batches.js';

const inserts = new WeakMap<Database.Database, Database.Statement>();

/** Appends batches, one row each, in one transaction. */
export function insertAccessLog(db: Database.Database, batches: readonly AccessLogBatch[]): void {
  let insert = inserts.get(db);
  if (insert === undefined) {
    insert = db.prepare('INSERT INTO access_log_batches (project, first_at, last_at, entries, records) VALUES (?, ?, ?, ?, ?)');
    inserts.set(db, insert);
  }
  const statement = insert;
  db.transaction(() => {
    for (const b of batches) statement.run(b.project, b.firstAt, b.lastAt, b.entries, b.records);
  })();
}

/** Adds the batches not yet in the per-record table to it, in key order; returns how many batches it covered. */
export function indexAccessLog(db: Database.Database): number {
  return db
    .transaction(() => {
      // One writer at a time (immediate transaction): no batch can land between the two statements.
      // A batch is caught up once, and its record ids are distinct: plain inserts, nothing to ignore.
      db.prepare(
        `INSERT INTO access_log_records (project, bucket, record_id, batch_id)
         SELECT b.project, b.id / ${BATCHES_PER_BUCKET}, r.value, b.id FROM access_log_batches b, json_each(b.records) r
         WHERE b.indexed = 0 ORDER BY 1, 2, 3, 4`,
      ).run();
      db.prepare(`INSERT OR IGNORE INTO access_log_buckets (project, bucket) SELECT DISTINCT project, id / ${BATCHES_PER_BUCKET} FROM access_log_batches WHERE indexed = 0`).run();
      return db.prepare('UPDATE access_log_batches SET indexed = 1 WHERE indexed = 0').run().changes;
    })
    .immediate();
}


/**
 * One round of the access log's worker: the catch-up, then a passive checkpoint, so that the
 * serving connection never copies the write-ahead log back itself. Returns the batches covered.
 */
export function catchUpAccessLog(db: Database.Database): number {
  const covered = indexAccessLog(db);
  db.pragma('wal_checkpoint(PASSIVE)');
  return covered;
}
