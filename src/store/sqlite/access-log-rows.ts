/** Access log rows into SQLite: many rows per statement, one transaction per batch. */
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
