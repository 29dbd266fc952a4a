/**
 * The upgrade that gave stores a change feed: an entry for every record stored before it, so a
 * feed read from the beginning includes them. Run when a writable store opens while the migration's
 * meta row `changes_backfill` is there, in keyset chunks, each chunk one transaction; an entry a
 * writer already made is kept (it is newer). Shared by both adapters through `BackfillSql`.
 */
import { backfilledChange, type ChangeEntry } from './change-items.js';

/** Rows per chunk: a few megabytes of record JSON at most, parsed once each. */
export const BACKFILL_CHUNK = 500;

/** The meta key the migration sets and the backfill clears. */
export const BACKFILL_META_KEY = 'changes_backfill';

type Table = 'customer' | 'alert' | 'execution';

/** A stored record as the backfill reads it. */
export interface BackfillRow {
  project: string;
  key: string;
  execution_id?: string;
  is_company?: number | boolean;
  etag: string;
  body: Buffer | string;
}

/** What an adapter provides: the pending flag, one chunk read after a key, and one chunk's writes. */
export interface BackfillSql {
  pending(): Promise<boolean>;
  read(table: Table, after: readonly string[] | undefined, limit: number): Promise<BackfillRow[]>;
  /** Adds the entries that are missing, in one transaction. */
  write(entries: readonly ChangeEntry[]): Promise<void>;
  done(): Promise<void>;
}

/** The key columns of each table, in keyset order. */
export const BACKFILL_KEYS: Readonly<Record<Table, readonly string[]>> = {
  customer: ['project', 'key'],
  alert: ['project', 'key'],
  execution: ['project', 'key', 'execution_id'],
};

/** Adds the missing entries of every stored record; a no-op once done. */
export async function backfillChanges(sql: BackfillSql): Promise<void> {
  if (!(await sql.pending())) return;
  const at = new Date().toISOString();
  for (const table of ['customer', 'alert', 'execution'] as const) {
    let after: string[] | undefined;
    for (;;) {
      const rows = await sql.read(table, after, BACKFILL_CHUNK);
      if (rows.length === 0) break;
      await sql.write(
        rows.map((r) =>
          backfilledChange(table, { project: r.project, key: r.key, executionId: r.execution_id, isCompany: Boolean(r.is_company), etag: r.etag, body: r.body }, at),
        ),
      );
      if (rows.length < BACKFILL_CHUNK) break;
      const last = rows[rows.length - 1]! as unknown as Record<string, string>;
      after = BACKFILL_KEYS[table].map((k) => last[k]!);
    }
  }
  await sql.done();
}
