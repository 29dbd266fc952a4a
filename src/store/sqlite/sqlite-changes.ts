/** The change feed's SQL on SQLite: an entry written with its record, a page of a project's feed, the upgrade's backfill. */
import type Database from 'better-sqlite3';
import type { ChangeEntry } from '../change-items.js';
import { BACKFILL_META_KEY, type BackfillRow, type BackfillSql } from '../changes-backfill.js';
import type { BatchedStatement } from '../read-batcher.js';
import type { ChangePosition, StoredChange } from '../store.js';
import type { Prepare } from './sqlite-rows.js';

/**
 * Writes a record's entry: REPLACE deletes the record's earlier entry and inserts this one with a
 * new seq, so an update moves the record to the end of its project's feed.
 */
export function recordChange(stmt: Prepare, c: ChangeEntry): void {
  stmt('INSERT OR REPLACE INTO changes (project, record, record_key, etag, item) VALUES (?, ?, ?, ?, ?)').run(c.project, c.record, c.recordKey, c.etag, c.item);
}

/** A page of the feed: one range scan of changes_feed. */
export const CHANGES_PAGE_SQL = 'SELECT seq, record_key, etag, item FROM changes WHERE project = ? AND seq > ? ORDER BY seq LIMIT ?';

/**
 * The project's newest feed position, asked once per project and turn (the read batcher): AUTOINCREMENT
 * never reuses one and SQLite has one writer, so every commit that changes a record of the project
 * moves it (its change stamp).
 */
export const CHANGE_HEAD: BatchedStatement = {
  operation: 'changeStamp',
  name: 'change_head',
  text: 'SELECT seq FROM changes WHERE project = ? ORDER BY seq DESC LIMIT 1',
};

/** Whether anything follows `after` in the project's feed. */
export const CHANGES_AFTER_SQL = 'SELECT 1 FROM changes WHERE project = ? AND seq > ? LIMIT 1';

/** A page row as the driver returns it. */
export interface ChangePageRow {
  seq: number;
  record_key: string;
  etag: string | null;
  item: Buffer;
}

/** A stored change of a page row; the item is the answer's bytes as they are. */
export function storedChange(r: ChangePageRow): StoredChange {
  return { position: { xid: '0', seq: String(r.seq) }, recordKey: r.record_key, etag: r.etag ?? '', body: r.item, layout: null, deflated: null };
}

/** The seq after which a page starts (0: from the beginning). */
export function seqAfter(after: ChangePosition | undefined): number {
  return after === undefined ? 0 : Number(after.seq);
}

const BACKFILL_READS = {
  customer: {
    first: 'SELECT project, customer_key AS key, is_company, etag, body FROM customers WHERE has_record = 1 ORDER BY project, customer_key LIMIT ?',
    next: 'SELECT project, customer_key AS key, is_company, etag, body FROM customers WHERE has_record = 1 AND (project, customer_key) > (?, ?) ORDER BY project, customer_key LIMIT ?',
  },
  alert: {
    first: 'SELECT project, alert_key AS key, etag, body FROM alerts ORDER BY project, alert_key LIMIT ?',
    next: 'SELECT project, alert_key AS key, etag, body FROM alerts WHERE (project, alert_key) > (?, ?) ORDER BY project, alert_key LIMIT ?',
  },
  execution: {
    first: 'SELECT project, customer_key AS key, execution_id, etag, NULL AS body FROM executions ORDER BY project, customer_key, execution_id LIMIT ?',
    next: `SELECT project, customer_key AS key, execution_id, etag, NULL AS body FROM executions
           WHERE (project, customer_key, execution_id) > (?, ?, ?) ORDER BY project, customer_key, execution_id LIMIT ?`,
  },
} as const;

/** The backfill's statements on `db` (a writable connection). */
export function sqliteChangesBackfill(db: Database.Database): BackfillSql {
  const insert = db.prepare('INSERT OR IGNORE INTO changes (project, record, record_key, etag, item) VALUES (?, ?, ?, ?, ?)');
  const write = db.transaction((entries: readonly ChangeEntry[]) => {
    for (const c of entries) insert.run(c.project, c.record, c.recordKey, c.etag, c.item);
  });
  return {
    pending: async () => db.prepare('SELECT 1 FROM meta WHERE key = ?').get(BACKFILL_META_KEY) !== undefined,
    read: async (table, after, limit) => {
      const sql = BACKFILL_READS[table];
      return (after === undefined ? db.prepare(sql.first).all(limit) : db.prepare(sql.next).all(...after, limit)) as BackfillRow[];
    },
    write: async (entries) => void write.immediate(entries),
    done: async () => void db.prepare('DELETE FROM meta WHERE key = ?').run(BACKFILL_META_KEY),
  };
}
