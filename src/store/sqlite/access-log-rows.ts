/**
 * Access log rows into SQLite: many rows per statement, one transaction per batch; the
 * per-record index is caught up separately, in sorted batches (see migration 3).
 */
import type Database from 'better-sqlite3';
import type { AccessLogEntry } from '../access-log.js';

const COLUMNS = '(at, key_id, project, route, record_id, status, request_id, client)';
const PER_STATEMENT = 64;
const prepared = new WeakMap<Database.Database, Map<number, Database.Statement>>();

function insertOf(db: Database.Database, n: number): Database.Statement {
  let byCount = prepared.get(db);
  if (byCount === undefined) {
    byCount = new Map();
    prepared.set(db, byCount);
  }
  let stmt = byCount.get(n);
  if (stmt === undefined) {
    stmt = db.prepare(`INSERT INTO access_log ${COLUMNS} VALUES ${Array(n).fill('(?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`);
    byCount.set(n, stmt);
  }
  return stmt;
}

/** Appends entries in one transaction, 64 rows per statement. */
export function insertAccessLog(db: Database.Database, entries: readonly AccessLogEntry[]): void {
  const values = (list: readonly AccessLogEntry[]): unknown[] =>
    list.flatMap((e) => [e.at, e.keyId, e.project, e.route, e.recordId, e.status, e.requestId, e.client]);
  db.transaction(() => {
    for (let i = 0; i < entries.length; i += PER_STATEMENT) {
      const part = entries.slice(i, i + PER_STATEMENT);
      insertOf(db, part.length).run(...values(part));
    }
  })();
}

const WATERMARK = 'access_log_indexed_upto';

/** Adds the rows appended since the last call to the per-record index, in key order; returns how many rows it covered. */
export function indexAccessLog(db: Database.Database): number {
  return db
    .transaction(() => {
      const upto = Number((db.prepare('SELECT value FROM meta WHERE key = ?').get(WATERMARK) as { value: number }).value);
      const max = Number((db.prepare('SELECT coalesce(max(id), 0) AS m FROM access_log').get() as { m: number }).m);
      if (max <= upto) return 0;
      db.prepare(
        `INSERT INTO access_log_by_record SELECT project, record_id, at, id FROM access_log
         WHERE id > ? AND id <= ? AND record_id IS NOT NULL ORDER BY project, record_id, at, id`,
      ).run(upto, max);
      db.prepare('UPDATE meta SET value = ? WHERE key = ?').run(max, WATERMARK);
      return max - upto;
    })
    .immediate();
}

/**
 * The ids of a record's entries: from the per-record index, plus the tail not indexed yet.
 * `extra` is the time window (`AND at ...`), applied to both halves with the same parameters.
 */
export function recordEntriesSql(extra: string): string {
  return `SELECT * FROM access_log WHERE id IN (
    SELECT id FROM access_log_by_record WHERE project = ? AND record_id = ?${extra}
    UNION ALL
    SELECT id FROM access_log WHERE id > (SELECT value FROM meta WHERE key = '${WATERMARK}') AND project = ? AND record_id = ?${extra}
  ) ORDER BY at, id LIMIT ?`;
}
