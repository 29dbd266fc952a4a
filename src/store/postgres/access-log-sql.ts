/** The access log in PostgreSQL: batch rows in, the per-record table caught up in bulk (see src/access-log/batches.ts). */
import type pg from 'pg';
import type { AccessLogBatch, AccessLogIndexFailure } from '../../access-log/access-log.js';
import { BATCHES_PER_BUCKET, batchRecordIds, type BatchDialect } from '../../access-log/batches.js';
import { inTransaction } from './in-transaction.js';
import { isConnectionFailure, storeErrorFrom } from './pg-errors.js';

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

/** How much one catch-up statement takes on, and how long it may run. */
export interface CatchUpBounds {
  /** Most batches per statement. */
  batches: number;
  /** Most bytes of record ids per statement; a batch over it is taken alone. */
  recordBytes: number;
  /** Most statements per catch-up; the batches left wait for the next one. */
  statements: number;
  /** The statement timeout of each: a batch holds up to a write's bytes of ids, whatever the serving timeout. */
  timeoutMs: number;
}

/**
 * A backlog (a feed read from the start names millions of records) is caught up in short
 * statements: as one, it outlasted the statement timeout, was rolled back and began again at the
 * next catch-up, for ever.
 */
export const CATCH_UP_BOUNDS: CatchUpBounds = { batches: 200, recordBytes: 2 * 1024 * 1024, statements: 100, timeoutMs: 60_000 };

/**
 * Adds the batches not yet in the per-record table to it (up to `bounds.statements` bulk
 * statements' worth); returns how many batches it covered. When a bulk statement fails for another
 * reason than the server, the batches left are caught up one at a time, so a batch the statement
 * cannot read never holds back the others; each failure is given to `report` (a batch failing
 * alone stays flagged for the next catch-up).
 */
export async function indexPostgresAccessLog(pool: pg.Pool, report: (failure: AccessLogIndexFailure) => void, bounds = CATCH_UP_BOUNDS): Promise<number> {
  let covered = 0;
  try {
    for (let i = 0; i < bounds.statements; i++) {
      const { n, picked } = await indexInBulk(pool, bounds);
      covered += n;
      if (picked === 0) break;
    }
    return covered;
  } catch (err) {
    if (isConnectionFailure(err)) throw err;
    report({ err: storeErrorFrom(err, 'indexAccessLog') });
    return covered + (await indexOneByOne(pool, report, bounds.timeoutMs));
  }
}

/** One catch-up statement on its own connection, with the catch-up's statement timeout. */
function withCatchUpTimeout<T>(pool: pg.Pool, timeoutMs: number, run: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  return inTransaction(pool, async (client) => {
    await client.query(`SET LOCAL statement_timeout = ${Math.floor(timeoutMs)}`);
    return run(client);
  });
}

/** One bulk statement: the next flagged batches within the bounds; how many it covered and how many it picked (0: none was left). */
async function indexInBulk(pool: pg.Pool, bounds: CatchUpBounds): Promise<{ n: number; picked: number }> {
  const r = await withCatchUpTimeout(pool, bounds.timeoutMs, (client) =>
    // One snapshot per statement: a batch another replica takes meanwhile is skipped (NOT indexed is checked again on the row).
    client.query<{ n: string; picked: string }>(
      `WITH pick AS (
         SELECT project, id FROM (
           SELECT project, id, sum(octet_length(records)) OVER (ORDER BY project, first_at, id) - octet_length(records) AS before
           FROM (SELECT project, first_at, id, records FROM access_log_batches WHERE NOT indexed ORDER BY project, first_at, id LIMIT $1) f) w
         WHERE before < $2),
       todo AS (UPDATE access_log_batches b SET indexed = true FROM pick WHERE b.project = pick.project AND b.id = pick.id AND NOT b.indexed
         RETURNING b.project, b.id, b.records),
       added AS (
         INSERT INTO access_log_records (project, bucket, record_hash, batch_id)
         SELECT DISTINCT todo.project, todo.id / ${BATCHES_PER_BUCKET}, hashtextextended(r.value, 0), todo.id
         FROM todo, jsonb_array_elements_text(todo.records::jsonb) r ORDER BY 1, 2, 3, 4),
       buckets AS (
         INSERT INTO access_log_buckets (project, bucket) SELECT DISTINCT project, id / ${BATCHES_PER_BUCKET} FROM todo
         ON CONFLICT DO NOTHING)
       SELECT (SELECT count(*) FROM todo) AS n, (SELECT count(*) FROM pick) AS picked`,
      [bounds.batches, bounds.recordBytes],
    ),
  );
  return { n: Number(r.rows[0]?.n ?? 0), picked: Number(r.rows[0]?.picked ?? 0) };
}

/** Flagged batches read per round trip when catching up one at a time. */
const ONE_BY_ONE_PAGE = 500;

/** Catches up each flagged batch in its own statement, its record ids read in JavaScript (see batchRecordIds). */
async function indexOneByOne(pool: pg.Pool, report: (failure: AccessLogIndexFailure) => void, timeoutMs: number): Promise<number> {
  let covered = 0;
  let after: [string, string, string] | undefined;
  for (;;) {
    const page = await pool.query<{ project: string; first_at: string; id: string; records: string }>(
      `SELECT project, first_at, id, records FROM access_log_batches WHERE NOT indexed
       ${after === undefined ? '' : 'AND (project, first_at, id) > ($1, $2, $3)'} ORDER BY project, first_at, id LIMIT ${ONE_BY_ONE_PAGE}`,
      after ?? [],
    );
    for (const b of page.rows) {
      try {
        const r = await withCatchUpTimeout(pool, timeoutMs, (client) =>
          client.query<{ n: string }>(
            `WITH todo AS (UPDATE access_log_batches SET indexed = true WHERE project = $1 AND id = $2 AND NOT indexed RETURNING project, id),
             added AS (
               INSERT INTO access_log_records (project, bucket, record_hash, batch_id)
               SELECT DISTINCT todo.project, todo.id / ${BATCHES_PER_BUCKET}, hashtextextended(r, 0), todo.id
               FROM todo, unnest($3::text[]) r ORDER BY 1, 2, 3, 4),
             buckets AS (
               INSERT INTO access_log_buckets (project, bucket) SELECT project, id / ${BATCHES_PER_BUCKET} FROM todo
               ON CONFLICT DO NOTHING)
             SELECT count(*) AS n FROM todo`,
            [b.project, b.id, batchRecordIds(b.records)],
          ),
        );
        covered += Number(r.rows[0]?.n ?? 0);
      } catch (err) {
        if (isConnectionFailure(err)) throw err;
        report({ err: storeErrorFrom(err, 'indexAccessLog'), batch: { project: b.project, id: Number(b.id) } });
      }
    }
    if (page.rows.length < ONE_BY_ONE_PAGE) return covered;
    const last = page.rows[page.rows.length - 1]!;
    after = [last.project, last.first_at, last.id];
  }
}

/**
 * A replica catches the per-record table up after this many batch rows, or this long after the
 * last time: often, so each catch-up is short and record queries find few batches still flagged.
 */
const CATCH_UP_ROWS = 10;
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

/**
 * Deletes at most `max` caught-up batches whose entries are all older than `before`, project by
 * project along the (project, first_at) index, with their rows in the per-record table, then the
 * buckets left empty. Returns the batches and entries deleted.
 */
export async function prunePostgresAccessLog(pool: pg.Pool, before: string, max: number): Promise<{ batches: number; entries: number }> {
  const done = { batches: 0, entries: 0 };
  const nextProject = async (after: string | undefined): Promise<string | undefined> =>
    (
      await pool.query<{ project: string }>(
        after === undefined ? 'SELECT project FROM access_log_batches ORDER BY project LIMIT 1' : 'SELECT project FROM access_log_batches WHERE project > $1 ORDER BY project LIMIT 1',
        after === undefined ? [] : [after],
      )
    ).rows[0]?.project;
  for (let project = await nextProject(undefined); project !== undefined && done.batches < max; project = await nextProject(project)) {
    const r = await pool.query<{ id: string; n: number }>(
      `WITH doomed AS (
         DELETE FROM access_log_batches WHERE project = $1 AND id IN (
           SELECT id FROM access_log_batches WHERE project = $1 AND first_at < $2 AND last_at < $2 AND indexed ORDER BY first_at, id LIMIT $3)
         RETURNING id, records, jsonb_array_length(entries::jsonb) AS n),
       gone AS (
         DELETE FROM access_log_records r
         USING (SELECT d.id, hashtextextended(x.value, 0) AS h FROM doomed d, jsonb_array_elements_text(d.records::jsonb) x) k
         WHERE r.project = $1 AND r.bucket = k.id / ${BATCHES_PER_BUCKET} AND r.record_hash = k.h AND r.batch_id = k.id)
       SELECT id, n FROM doomed`,
      [project, before, max - done.batches],
    );
    if (r.rows.length === 0) continue;
    done.batches += r.rows.length;
    for (const row of r.rows) done.entries += Number(row.n);
    const buckets = [...new Set(r.rows.map((row) => Math.floor(Number(row.id) / BATCHES_PER_BUCKET)))];
    await pool.query(
      `DELETE FROM access_log_buckets b WHERE b.project = $1 AND b.bucket = ANY($2::bigint[])
       AND NOT EXISTS (SELECT 1 FROM access_log_batches a WHERE a.project = $1 AND a.id >= b.bucket * ${BATCHES_PER_BUCKET} AND a.id < (b.bucket + 1) * ${BATCHES_PER_BUCKET})`,
      [project, buckets],
    );
  }
  return done;
}

/** The batches (and their entries) whose entries are all older than `before`. */
export async function countPostgresAccessLogBefore(pool: pg.Pool, before: string): Promise<{ batches: number; entries: number }> {
  const r = await pool.query<{ batches: string; entries: string }>(
    'SELECT count(*) AS batches, coalesce(sum(jsonb_array_length(entries::jsonb)), 0) AS entries FROM access_log_batches WHERE first_at < $1 AND last_at < $1',
    [before],
  );
  return { batches: Number(r.rows[0]!.batches), entries: Number(r.rows[0]!.entries) };
}
