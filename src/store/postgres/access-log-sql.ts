/** The access log in PostgreSQL: batch rows in, the per-record table caught up in bulk (see access-log-batches.ts). */
import type pg from 'pg';
import type { AccessLogEntry } from '../access-log.js';
import { batchesOf, type BatchDialect } from '../access-log-batches.js';

/** How the shared batch queries are written for PostgreSQL. */
export const POSTGRES_BATCHES: BatchDialect = { placeholder: (n) => `$${n}`, unindexed: 'NOT indexed' };

/** Inserts entries as one batch row per project, in one statement. */
export async function insertAccessLogBatches(pool: pg.Pool, entries: readonly AccessLogEntry[]): Promise<void> {
  const values: unknown[] = [];
  const tuples = batchesOf(entries).map((b, i) => {
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
       INSERT INTO access_log_records (project, record_id, batch_id)
       SELECT todo.project, r.value, todo.id FROM todo, jsonb_array_elements_text(todo.records::jsonb) r ORDER BY 1, 2, 3
       ON CONFLICT DO NOTHING)
     SELECT count(*) AS n FROM todo`,
  );
  return Number(r.rows[0]?.n ?? 0);
}

/** A replica catches the per-record table up after this many entries, or this long after the last time. */
const CATCH_UP_ENTRIES = 50_000;
const CATCH_UP_MS = 10_000;

/** When a replica catches the per-record table up. */
export class CatchUpSchedule {
  private entries = 0;
  private at = performance.now();

  /** Counts `n` entries just written; true when a catch-up is due. */
  due(n: number): boolean {
    this.entries += n;
    return this.entries >= CATCH_UP_ENTRIES || performance.now() - this.at >= CATCH_UP_MS;
  }

  /** Marks a catch-up as started now. */
  started(): void {
    this.entries = 0;
    this.at = performance.now();
  }
}
