/** The access log in SQLite: batch rows in, the per-record table caught up in bulk, batches out in order. */
import type Database from 'better-sqlite3';
import type { AccessLogBatch, AccessLogIndexFailure } from '../../access-log/access-log.js';
import { BATCHES_PER_BUCKET, batchRecordIds } from '../../access-log/batches.js';
import { isStoreUnavailable, type StoreError } from '../store-errors.js';
import { sqliteStoreError } from './sqlite-errors.js';

const inserts = new WeakMap<Database.Database, Database.Statement>();

/**
 * Batches per row of the per-record table: the bits of one SQLite integer. A row names its record
 * in the batches `bucket * BATCHES_PER_BUCKET + word * BATCHES_PER_WORD + n` for each bit n set
 * (BATCHES_PER_BUCKET is a multiple of it).
 */
const BATCHES_PER_WORD = 64;
const BUCKET_OF = (id: string): string => `${id} / ${BATCHES_PER_BUCKET}`;
const WORD_OF = (id: string): string => `${id} % ${BATCHES_PER_BUCKET} / ${BATCHES_PER_WORD}`;
const BIT_OF = (id: string): string => `1 << (${id} % ${BATCHES_PER_WORD})`;

/** Where batch `id` is in the per-record table, for statements given it as parameters: bound from JavaScript numbers, SQLite would divide them as reals. */
function placeOf(id: number): { bucket: number; word: number; bit: number } {
  return { bucket: Math.floor(id / BATCHES_PER_BUCKET), word: Math.floor((id % BATCHES_PER_BUCKET) / BATCHES_PER_WORD), bit: id % BATCHES_PER_WORD };
}
/** A row's key, and how a row met again takes the new batches' bits beside its own. */
const MERGE_BITS = 'ON CONFLICT (project, bucket, record_id, word) DO UPDATE SET bits = bits | excluded.bits';
const BIT_NUMBERS = JSON.stringify(Array.from({ length: BATCHES_PER_WORD }, (_, n) => n));

/** The ids of the batches the per-record table names for a record (see BatchDialect.recordBatches), one seek per bucket. */
export function recordBatchesSql(project: string, again: string, record: string): string {
  return (
    `SELECT r.bucket * ${BATCHES_PER_BUCKET} + r.word * ${BATCHES_PER_WORD} + n.value FROM access_log_records r, json_each('${BIT_NUMBERS}') n` +
    ` WHERE r.project = ${project} AND r.bucket IN (SELECT bucket FROM access_log_buckets WHERE project = ${again}) AND r.record_id = ${record} AND (r.bits >> n.value) & 1`
  );
}

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

/**
 * Adds the batches not yet in the per-record table to it; returns how many batches
 * it covered. When the one transaction fails for another reason than a file it cannot use now, the
 * batches are caught up one at a time, so a batch it cannot read never holds back the others;
 * each failure is given to `report` (a batch failing alone stays flagged for the next catch-up).
 */
export function indexAccessLog(db: Database.Database, report: (failure: AccessLogIndexFailure) => void = () => undefined): number {
  try {
    return indexAllAtOnce(db);
  } catch (err) {
    report({ err: unlessUnavailable(err) });
    return indexOneByOne(db, report);
  }
}

function indexAllAtOnce(db: Database.Database): number {
  return db
    .transaction(() => {
      // One writer at a time (immediate transaction): no batch can land between the statements.
      // Each (batch, record) pair sets its bit in its row; not sorted first: the rows of the newest
      // bucket stay in the connection's cache, and sorting cost more than it saved.
      db.prepare(
        `INSERT INTO access_log_records (project, bucket, record_id, word, bits)
         SELECT b.project, ${BUCKET_OF('b.id')}, r.value, ${WORD_OF('b.id')}, ${BIT_OF('b.id')} FROM access_log_batches b, json_each(b.records) r
         WHERE b.indexed = 0
         ${MERGE_BITS}`,
      ).run();
      db.prepare(`INSERT OR IGNORE INTO access_log_buckets (project, bucket) SELECT DISTINCT project, ${BUCKET_OF('id')} FROM access_log_batches WHERE indexed = 0`).run();
      return db.prepare('UPDATE access_log_batches SET indexed = 1 WHERE indexed = 0').run().changes;
    })
    .immediate();
}

/** Catches up each flagged batch in its own transaction, its record ids read in JavaScript (see batchRecordIds). */
function indexOneByOne(db: Database.Database, report: (failure: AccessLogIndexFailure) => void): number {
  const flagged = db.prepare('SELECT id, project, records FROM access_log_batches WHERE indexed = 0 ORDER BY id').all() as { id: number; project: string; records: string }[];
  const mark = db.prepare('UPDATE access_log_batches SET indexed = 1 WHERE id = ? AND indexed = 0');
  const add = db.prepare(`INSERT INTO access_log_records (project, bucket, record_id, word, bits) VALUES (@project, @bucket, @record, @word, 1 << @bit) ${MERGE_BITS}`);
  const bucket = db.prepare('INSERT OR IGNORE INTO access_log_buckets (project, bucket) VALUES (?, ?)');
  const one = db.transaction((b: { id: number; project: string; records: string }): number => {
    if (mark.run(b.id).changes === 0) return 0;
    const place = placeOf(b.id);
    for (const record of batchRecordIds(b.records)) add.run({ project: b.project, record, ...place });
    bucket.run(b.project, place.bucket);
    return 1;
  });
  let covered = 0;
  for (const b of flagged) {
    try {
      covered += one.immediate(b);
    } catch (err) {
      report({ err: unlessUnavailable(err), batch: { project: b.project, id: b.id } });
    }
  }
  return covered;
}

/** The store error of `err`; thrown when the file cannot be used now (busy, full, ...): every batch would meet that. */
function unlessUnavailable(err: unknown): StoreError {
  const e = sqliteStoreError(err, 'access log catch-up');
  if (isStoreUnavailable(e)) throw e;
  return e;
}

/**
 * One round of the access log's worker: the catch-up, then a passive checkpoint, so that the
 * serving connection never copies the write-ahead log back itself. Returns the batches covered.
 */
export function catchUpAccessLog(db: Database.Database, report?: (failure: AccessLogIndexFailure) => void): number {
  const covered = indexAccessLog(db, report);
  db.pragma('wal_checkpoint(PASSIVE)');
  return covered;
}

/**
 * Deletes at most `max` caught-up batches whose entries are all older than `before`, project by
 * project along the (project, first_at) index, with their bits in the per-record table (and its
 * rows left with none) and the buckets left empty; one transaction. Returns the batches and entries deleted.
 */
export function pruneAccessLog(db: Database.Database, before: string, max: number): { batches: number; entries: number } {
  const first = db.prepare('SELECT project FROM access_log_batches ORDER BY project LIMIT 1').pluck();
  const next = db.prepare('SELECT project FROM access_log_batches WHERE project > ? ORDER BY project LIMIT 1').pluck();
  const doomed = db.prepare(
    `SELECT id, records, json_array_length(entries) AS n FROM access_log_batches
     WHERE project = ? AND first_at < ? AND last_at < ? AND indexed = 1 ORDER BY first_at, id LIMIT ?`,
  );
  const row = 'project = @project AND bucket = @bucket AND record_id = @record AND word = @word';
  const clearBit = db.prepare(`UPDATE access_log_records SET bits = bits & ~(1 << @bit) WHERE ${row}`);
  const dropEmpty = db.prepare(`DELETE FROM access_log_records WHERE ${row} AND bits = 0`);
  const dropBatch = db.prepare('DELETE FROM access_log_batches WHERE id = ?');
  const dropBucket = db.prepare('DELETE FROM access_log_buckets WHERE project = ? AND bucket = ? AND NOT EXISTS (SELECT 1 FROM access_log_batches WHERE id >= ? AND id < ? AND project = ?)');
  return db
    .transaction(() => {
      const done = { batches: 0, entries: 0 };
      for (let project = first.get() as string | undefined; project !== undefined && done.batches < max; project = next.get(project) as string | undefined) {
        const buckets = new Set<number>();
        for (const b of doomed.all(project, before, before, max - done.batches) as { id: number; records: string; n: number }[]) {
          const place = placeOf(b.id);
          // The ids as a catch-up keyed them (see batchRecordIds).
          for (const record of batchRecordIds(b.records)) {
            clearBit.run({ project, record, ...place });
            dropEmpty.run({ project, record, ...place });
          }
          dropBatch.run(b.id);
          buckets.add(place.bucket);
          done.batches++;
          done.entries += b.n;
        }
        for (const bucket of buckets) dropBucket.run(project, bucket, bucket * BATCHES_PER_BUCKET, (bucket + 1) * BATCHES_PER_BUCKET, project);
      }
      return done;
    })
    .immediate();
}

/** The batches (and their entries) whose entries are all older than `before`. */
export function countAccessLogBefore(db: Database.Database, before: string): { batches: number; entries: number } {
  return db
    .prepare('SELECT count(*) AS batches, coalesce(sum(json_array_length(entries)), 0) AS entries FROM access_log_batches WHERE first_at < ? AND last_at < ?')
    .get(before, before) as { batches: number; entries: number };
}
