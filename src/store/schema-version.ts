/** Schema versions without migrating: what a store is at before `migrate` opens it, and the latest known. */
import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { isPostgresUrl, sqlitePath } from './open-store.js';
import { SQLITE_MIGRATIONS, sqliteSchemaVersion } from './sqlite/migrations.js';

/** The version this build migrates a store at `url` to. */
export async function latestSchemaVersion(url: string): Promise<number> {
  if (!isPostgresUrl(url)) return SQLITE_MIGRATIONS.length;
  const { POSTGRES_MIGRATIONS } = await import('./postgres/migrations.js');
  return POSTGRES_MIGRATIONS.length;
}

/** The version the store at `url` is at now (0 when it does not exist yet), changing nothing. */
export async function peekSchemaVersion(url: string): Promise<number> {
  if (isPostgresUrl(url)) {
    const { peekPostgresVersion } = await import('./postgres/migrations.js');
    return peekPostgresVersion(url);
  }
  const file = sqlitePath(url);
  if (file === ':memory:' || !existsSync(file)) return 0;
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return sqliteSchemaVersion(db);
  } finally {
    db.close();
  }
}
