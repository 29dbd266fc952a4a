/** Picks the store adapter from a DATABASE_URL: postgres:// URLs, otherwise a SQLite file. */
import { namedBySetting } from '../config/named-by-setting.js';
import type { Store } from './store.js';
import { openSqliteStore } from './sqlite/sqlite-store.js';

/** Tuning that only some adapters use. */
export interface OpenStoreOptions {
  poolSize?: number;
  statementTimeoutMs?: number;
  /** PostgreSQL: a streaming replica that serves reads (src/store/postgres/read-side.ts). */
  readUrl?: string;
  /** Opened to write in bulk (import, copy) rather than to serve reads. */
  bulkWrites?: boolean;
  /** SQLite: record reads on a thread of their own, for a store that serves requests. */
  readThread?: boolean;
  /** The setting or flag that named the store, given in an open failure (DATABASE_URL or --db by default). */
  source?: string;
}

/** True when a URL names a PostgreSQL server. */
export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//.test(url);
}

/** The setting that names the store, unless the caller says another (`copy`'s --from and --to). */
export const STORE_SETTING = 'DATABASE_URL (--db)';

/** Opens the store a URL or path names, migrating it as needed; a failure names the setting that named the store. */
export async function openStore(url: string, options: OpenStoreOptions = {}): Promise<Store> {
  if (!isPostgresUrl(url) && options.readUrl !== undefined) throw new Error('DATABASE_READ_URL needs a postgres:// DATABASE_URL: a SQLite file has no replica');
  // A server that is down or a mistyped host is an operator's to fix.
  return namedBySetting(options.source ?? STORE_SETTING, open(url, options));
}

async function open(url: string, options: OpenStoreOptions): Promise<Store> {
  if (isPostgresUrl(url)) {
    const { openPostgresStore } = await import('./postgres/postgres-store.js');
    return openPostgresStore(url, options);
  }
  return openSqliteStore(sqlitePath(url), { bulkWrites: options.bulkWrites, readThread: options.readThread });
}

/** The file path of a SQLite URL (`sqlite:PATH`, `file:PATH` or a bare path). */
export function sqlitePath(url: string): string {
  return url.replace(/^(sqlite|file):(\/\/)?/, '');
}
