/**
 * The access log is stored a flush at a time: one row per project per batch of entries, the
 * entries as one JSON array, so a logged read costs a share of one insert rather than a row and
 * its index entries. A per-record table names the batches holding a record's reads; it is caught
 * up in bulk (batches not in it yet are flagged), and reads gather entries batch by batch.
 */
import { storableText } from '../contract/storable-text.js';
import type { AccessLogBatch, AccessLogEntry, AccessLogIndexFailure, AccessLogIndexListener, AccessLogQuery } from './access-log.js';
import { AccessLogChunk, entriesOf, type StoredEntry } from './chunk.js';

/** A batch row as read back. */
export interface BatchRow {
  id: number | string;
  project: string;
  first_at: string;
  entries: string;
}

/** Splits entries into one batch per project, keeping their order. */
export function batchesOf(entries: readonly AccessLogEntry[]): AccessLogBatch[] {
  const chunk = new AccessLogChunk();
  for (const e of entries) chunk.add(e);
  return chunk.batches();
}

/** Batch rows per round trip while gathering. */
export const BATCHES_PER_FETCH = 200;

/** Where the SQL dialects differ for the batch queries. */
export interface BatchDialect {
  /** The n-th (1-based) parameter placeholder. */
  placeholder(n: number): string;
  /** The condition of a batch not yet in the per-record table. */
  unindexed: string;
  /**
   * The ids of the batches the per-record table names for the record id in parameter `record`,
   * seeking once per bucket of the project (given twice, as `project` and `again`).
   */
  recordBatches(project: string, again: string, record: string): string;
}

/**
 * Batch ids per bucket of the per-record table, whose key starts (project, bucket, record).
 * A catch-up's writes land in the newest bucket only, so their cost stays that of a table of at
 * most this many batches however long the log grows; keyed by record alone, every catch-up
 * dirtied pages all over the table (on SQLite it took 4× as long by a million entries, and rising).
 * A record query seeks once per bucket the project has (access_log_buckets). Each store's rows
 * name their batches by bits counted from their bucket's first (PostgreSQL: a bitmap of the whole
 * bucket; SQLite: words of 64), so it is fixed by their migrations.
 */
export const BATCHES_PER_BUCKET = 256;

/**
 * The statement fetching the next batches a query may draw on, in (first_at, id) order, after
 * a given batch when `keyset`: for a record, the batches the per-record table names plus those
 * not in it yet; else every batch of the project. `params` builds its parameters per round trip.
 */
export function batchFetch(q: AccessLogQuery, keyset: boolean, d: BatchDialect): { sql: string; params: (after: { firstAt: string; id: number } | undefined) => unknown[] } {
  const base: unknown[] = q.recordId === undefined ? [q.project] : [q.project, q.project, q.project, q.recordId];
  let n = base.length;
  const next = (): string => d.placeholder(++n);
  const keysetSql = keyset ? ` AND (first_at, id) > (${next()}, ${next()})` : '';
  const window: string[] = [];
  if (q.since !== undefined) window.push(` AND last_at >= ${next()}`);
  if (q.until !== undefined) window.push(` AND first_at < ${next()}`);
  const page = `${keysetSql}${window.join('')} ORDER BY first_at, id LIMIT ${BATCHES_PER_FETCH}`;
  const columns = 'id, project, first_at, entries';
  const from =
    q.recordId === undefined
      ? `SELECT ${columns} FROM access_log_batches WHERE project = ${d.placeholder(1)}`
      : `SELECT ${columns} FROM access_log_batches WHERE project = ${d.placeholder(1)}` +
        ` AND (id IN (${d.recordBatches(d.placeholder(2), d.placeholder(3), d.placeholder(4))}) OR ${d.unindexed})`;
  const windowParams = [...(q.since === undefined ? [] : [q.since]), ...(q.until === undefined ? [] : [q.until])];
  return {
    sql: from + page,
    params: (after) => [...base, ...(keyset && after !== undefined ? [after.firstAt, after.id] : []), ...windowParams],
  };
}

/** Runs a query over batches with `run(sql, params)`, gathering its entries (see gatherEntries). */
export function queryBatches(q: AccessLogQuery, d: BatchDialect, run: (sql: string, params: unknown[]) => Promise<BatchRow[]>): Promise<AccessLogEntry[]> {
  const first = batchFetch(q, false, d);
  const next = batchFetch(q, true, d);
  return gatherEntries(q, (after) => (after === undefined ? run(first.sql, first.params(after)) : run(next.sql, next.params(after))));
}

interface Gathered {
  entry: AccessLogEntry;
  batch: number;
  position: number;
}

const before = (a: Gathered, b: Gathered): number =>
  a.entry.at < b.entry.at ? -1 : a.entry.at > b.entry.at ? 1 : a.batch - b.batch || a.position - b.position;

/**
 * The entries a query asks for, oldest first (ties in batch order), at most `q.limit`.
 * `fetch` returns the next `pageSize` batches in (first_at, id) order after the given one; gathering stops
 * once no later batch can hold an entry earlier than the ones kept.
 */
export async function gatherEntries(
  q: AccessLogQuery,
  fetch: (after: { firstAt: string; id: number } | undefined) => Promise<BatchRow[]>,
  pageSize = BATCHES_PER_FETCH,
): Promise<AccessLogEntry[]> {
  let kept: Gathered[] = [];
  // The limit-th earliest time kept at the last trim: a batch starting after it has nothing to add.
  let threshold: string | undefined;
  const trim = (): void => {
    kept.sort(before);
    if (kept.length > q.limit) kept = kept.slice(0, q.limit);
  };
  let after: { firstAt: string; id: number } | undefined;
  for (;;) {
    const rows = await fetch(after);
    for (const row of rows) {
      if (threshold !== undefined && row.first_at > threshold) {
        trim();
        return kept.map((g) => g.entry);
      }
      const id = Number(row.id);
      entriesOf(JSON.parse(row.entries) as StoredEntry[], row.project).forEach((entry, position) => {
        const at = entry.at;
        if (q.since !== undefined && at < q.since) return;
        if (q.until !== undefined && at >= q.until) return;
        // A record's reads are those that asked for it and those whose answer returned it.
        if (q.recordId !== undefined && entry.recordId !== q.recordId && !(entry.records?.includes(q.recordId) ?? false)) return;
        kept.push({ entry, batch: id, position });
      });
      if (kept.length >= (threshold === undefined ? q.limit : 2 * q.limit)) {
        trim();
        threshold = kept[kept.length - 1]!.entry.at;
      }
      after = { firstAt: row.first_at, id };
    }
    if (rows.length < pageSize) {
      trim();
      return kept.map((g) => g.entry);
    }
  }
}

/** The listeners of a store's catch-up failures. */
export class IndexFailureListeners {
  private readonly listeners: AccessLogIndexListener[] = [];

  add(listener: AccessLogIndexListener): void {
    this.listeners.push(listener);
  }

  report(failure: AccessLogIndexFailure): void {
    for (const l of this.listeners) l(failure);
  }
}

/**
 * The record ids of one batch as the per-record table keys them, read in JavaScript rather than
 * by the database's JSON functions: a batch an older version wrote may hold ids with NUL or lone
 * surrogates (as JSON escapes), which those refuse; here they become U+FFFD, as new entries do.
 */
export function batchRecordIds(records: string): string[] {
  return [...new Set((JSON.parse(records) as unknown[]).filter((r): r is string => typeof r === 'string').map(storableText))];
}
