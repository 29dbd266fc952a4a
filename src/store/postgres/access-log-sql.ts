/** The access log in PostgreSQL: batch rows in, the per-record table caught up in bulk (see access-log-batches.ts). */
import type pg from 'pg';
import type { AccessLogBatch } from '../access-log.js';
import { BATCHES_PER_BUCKET, type BatchDialect } from '../access-log-batches.js';

/**
 * How the shared batch queries are written for PostgreSQL: the per-record table holds hashes of
 * record ids, and the lateral subquery (OFFSET 0 keeps the planner from flattening it) seeks
 * once per bucket, whatever the tables' statistics say.
 */
export const POSTGRES_BATCHES: BatchDialect = {
  placeholder: (n) => `$${n}`,
  unindexed: 'NOT indexed',
  recordBatches: (project, again, record) =>
    `SELECT r.batch_id FROM access_log_buckets b, LATERAL (SELECT batch_id FROM access_log_records` +
    ` WHERE project = ${project} AND bucket = b.bucket AND record_hash = hashtextextended(${record}, 0) OFFSET 0) r WHERE b.project = ${again}`,
};

/** Inserts batches, one row each, in one statement. */
export async function insertAccessLogBatches(pool: pg.Pool, batches: readonly AccessLogBatch[]): Promise<void> {
  const values: unknown[] = [];
  const tuples = batches.map((b, i) => {
    values.push(b.project, b.firstAt, b.lastAt, b.entries, b.records);
    return `(${[1, 2, 3, 4, 5].map((c) => `$${i * 5 + c}`).join(', ')})`;
  });
  await pool.query(`INSERT INTO access_log_batches (project, first_at, last_at, entries, records) VALUES ${tuples.join(', ')}`, values);
}

/** Adds every batch not yet in the per-record table to it; returns how many batches it covered. */
export async function indexPostgresAccessLog(pool: pg.Pool): Promise<number> {
  // One statement, one snapshot: a batch another replica commits meanwhile stays flagged for next time.
  const r = await pool.query<{ n: string }>(
    `WITH todo AS (UPDATE access_log_batches SET indexed = true WHERE NOT indexed RETURNING project, id, records),
     added AS (
       INSERT INTO access_log_records (project, bucket, record_hash, batch_id)
       SELECT DISTINCT todo.project, todo.id / ${BATCHES_PER_BUCKET}, hashtextextended(r.value, 0), todo.id
       FROM todo, jsonb_array_elements_text(todo.records::jsonb) r ORDER BY 1, 2, 3, 4),
     buckets AS (
       INSERT INTO access_log_buckets (project, bucket) SELECT DISTINCT project, id / ${BATCHES_PER_BUCKET} FROM todo
       ON CONFLICT DO NOTHING)
     SELECT count(*) AS n FROM todo`,
  );
  return Number(r.rows[0]?.n ?? 0);
}

/** A replica catches the per-record table up after this many batch rows (50,000 entries of one project), or this long after the last time. */
const CATCH_UP_ROWS = 100;
const CATCH_UP_MS = 10_000;

/** When a replica catches the per-record table up. */
export class CatchUpSchedule {
  private rows = 0;
  private at = performance.now();

  /** Counts `n` batch rows just written; true when a catch-up is due. */
  due(n: number): boolean {
    this.rows += n;
    return this.rows >= CATCH_UP_ROWS || performance.now() - this.at >= CATCH_UP_MS;
  }

  /** Marks a catch-up as started now. */
  started(): void {
    this.rows = 0;
    this.at = performance.now();
  }
}
