/** The access log in PostgreSQL: batch rows in, the per-record table caught up in bulk (see src/access-log/batches.ts). */
import type pg from 'pg';
import type { AccessLogBatch, AccessLogIndexFailure } from '../../access-log/access-log.js';
import { BATCHES_PER_BUCKET, batchRecordIds, type BatchDialect } from '../../access-log/batches.js';
import { inTransaction } from './in-transaction.js';
import { isConnectionFailure, storeErrorFrom } from './pg-errors.js';
import { queryDeadline, withDeadline } from './deadlines.js';

/** A per-record row's bitmap once none of its batches is left. */
const NO_BATCHES = `B'0'::bit(${BATCHES_PER_BUCKET})`;
/** The bitmap of batch `id` in its bucket's row of the per-record table (bit n: the bucket's n-th batch). */
const BATCH_BIT = (id: string): string => `(B'1'::bit(${BATCHES_PER_BUCKET}) >> (${id} % ${BATCHES_PER_BUCKET})::int)`;

/**
 * Adds the (batch, record id) pairs of `pairs` (a FROM list naming `project`, `id` and `record`)
 * to the per-record table: one row per project, bucket and record hash, its batches OR-ed in.
 * Grouped first, since an upsert may not meet the same row twice; in key order, so two replicas
 * catching up at once lock rows in the same order.
 */
const ADD_PAIRS = (pairs: string, project: string, id: string, record: string): string =>
  `INSERT INTO access_log_records (project, bucket, record_hash, batches)
   SELECT ${project}, ${id} / ${BATCHES_PER_BUCKET}, hashtextextended(${record}, 0), bit_or(${BATCH_BIT(id)})
   FROM ${pairs} GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
   ON CONFLICT (project, bucket, record_hash) DO UPDATE SET batches = access_log_records.batches | excluded.batches`;

/** Lists the buckets of the batches a catch-up takes (its `todo`) among their projects'. */
const ADD_BUCKETS = `INSERT INTO access_log_buckets (project, bucket) SELECT DISTINCT project, id / ${BATCHES_PER_BUCKET} FROM todo ON CONFLICT DO NOTHING`;

/**
 * How the shared batch queries are written for PostgreSQL: the per-record table holds hashes of
 * record ids with a bitmap of batches per bucket, and the lateral subquery (OFFSET 0 keeps the
 * planner from flattening it) seeks once per bucket, whatever the tables' statistics say.
 */
export const POSTGRES_BATCHES: BatchDialect = {
  placeholder: (n) => `$${n}`,
  unindexed: 'NOT indexed',
  recordBatches: (project, again, record) =>
    `SELECT r.bucket * ${BATCHES_PER_BUCKET} + i FROM access_log_buckets b, LATERAL (SELECT bucket, batches FROM access_log_records` +
    ` WHERE project = ${project} AND bucket = b.bucket AND record_hash = hashtextextended(${record}, 0) OFFSET 0) r,` +
    ` generate_series(0, ${BATCHES_PER_BUCKET - 1}) i WHERE b.project = ${again} AND get_bit(r.batches, i) = 1`,
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

/** A statement of a catch-up: its text and parameters. */
type CatchUpQuery = <R extends pg.QueryResultRow>(text: string, values: unknown[]) => Promise<pg.QueryResult<R>>;

/** One catch-up statement on its own connection, with the catch-up's statement timeout and a client-side deadline past it. */
function withCatchUpTimeout<T>(pool: pg.Pool, timeoutMs: number, run: (query: CatchUpQuery) => Promise<T>): Promise<T> {
  return inTransaction(pool, async (client) => {
    await client.query(`SET LOCAL statement_timeout = ${Math.floor(timeoutMs)}`);
    // The pool's deadline is the serving time-out's: this statement may rightly run longer.
    return run((text, values) => client.query(withDeadline({ text, values }, queryDeadline(timeoutMs))));
  });
}

/** One bulk statement: the next flagged batches within the bounds; how many it covered and how many it picked (0: none was left). */
async function indexInBulk(pool: pg.Pool, bounds: CatchUpBounds): Promise<{ n: number; picked: number }> {
  const r = await withCatchUpTimeout(pool, bounds.timeoutMs, (query) =>
    // One snapshot per statement: a batch another replica takes meanwhile is skipped (NOT indexed is checked again on the row).
    query<{ n: string; picked: string }>(
      `WITH pick AS (
         SELECT project, id FROM (
           SELECT project, id, sum(octet_length(records)) OVER (ORDER BY project, first_at, id) - octet_length(records) AS before
           FROM (SELECT project, first_at, id, records FROM access_log_batches WHERE NOT indexed ORDER BY project, first_at, id LIMIT $1) f) w
         WHERE before < $2),
       todo AS (UPDATE access_log_batches b SET indexed = true FROM pick WHERE b.project = pick.project AND b.id = pick.id AND NOT b.indexed
         RETURNING b.project, b.id, b.records),
       added AS (${ADD_PAIRS('todo, jsonb_array_elements_text(todo.records::jsonb) r', 'todo.project', 'todo.id', 'r.value')}),
       buckets AS (${ADD_BUCKETS})
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
        const r = await withCatchUpTimeout(pool, timeoutMs, (query) =>
          query<{ n: string }>(
            `WITH todo AS (UPDATE access_log_batches SET indexed = true WHERE project = $1 AND id = $2 AND NOT indexed RETURNING project, id),
             added AS (${ADD_PAIRS('todo, unnest($3::text[]) r', 'todo.project', 'todo.id', 'r')}),
             buckets AS (${ADD_BUCKETS})
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
 * project along the (project, first_at) index, with their bits in the per-record table (and its
 * rows left with none), then the buckets left empty. Returns the batches and entries deleted.
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
    // Rows named by a doomed batch come back as `emptied` when it was their last batch.
    const r = await pool.query<{ id: string | null; n: number | null; bucket: string | null; hash: string | null }>(
      `WITH doomed AS (
         DELETE FROM access_log_batches WHERE project = $1 AND id IN (
           SELECT id FROM access_log_batches WHERE project = $1 AND first_at < $2 AND last_at < $2 AND indexed ORDER BY first_at, id LIMIT $3)
         RETURNING id, records, jsonb_array_length(entries::jsonb) AS n),
       cleared AS (
         UPDATE access_log_records r SET batches = r.batches & ~k.bits
         FROM (SELECT d.id / ${BATCHES_PER_BUCKET} AS bucket, hashtextextended(x.value, 0) AS h, bit_or(${BATCH_BIT('d.id')}) AS bits
               FROM doomed d, jsonb_array_elements_text(d.records::jsonb) x GROUP BY 1, 2) k
         WHERE r.project = $1 AND r.bucket = k.bucket AND r.record_hash = k.h
         RETURNING r.bucket, r.record_hash, r.batches = ${NO_BATCHES} AS emptied)
       SELECT id, n, NULL::bigint AS bucket, NULL::bigint AS hash FROM doomed
       UNION ALL SELECT NULL, NULL, bucket, record_hash FROM cleared WHERE emptied`,
      [project, before, max - done.batches],
    );
    const batches = r.rows.filter((row) => row.id !== null);
    if (batches.length === 0) continue;
    done.batches += batches.length;
    for (const row of batches) done.entries += Number(row.n);
    const buckets = [...new Set(batches.map((row) => Math.floor(Number(row.id) / BATCHES_PER_BUCKET)))];
    const emptied = r.rows.filter((row) => row.id === null);
    // A statement sees the rows as they were before it, so the rows its update emptied go in a second one.
    if (emptied.length > 0) {
      await pool.query(
        `DELETE FROM access_log_records WHERE project = $1 AND (bucket, record_hash) IN (SELECT * FROM unnest($2::bigint[], $3::bigint[])) AND batches = ${NO_BATCHES}`,
        [project, emptied.map((row) => row.bucket), emptied.map((row) => row.hash)],
      );
    }
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
