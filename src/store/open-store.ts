/** Picks the store adapter from a DATABASE_URL: postgres:// URLs, otherwise a SQLite file. */
import type { Store } from './store.js';
import { openSqliteStore } from './sqlite/sqlite-store.js';

/** Opens the store a URL or path names, migrating it as needed. */
export async function openStore(url: string): Promise<Store> {
  if (/^postgres(ql)?:\/\//.test(url)) {
    const { openPostgresStore } = await import('./postgres/postgres-store.js');
    return openPostgresStore(url);
  }
  return openSqliteStore(sqlitePath(url));
}

/** The file path of a SQLite URL (`sqlite:PATH`, `file:PATH` or a bare path). */
export function sqlitePath(url: string): string {
  return url.replace(/^(sqlite|file):(\/\/)?/, '');
}
