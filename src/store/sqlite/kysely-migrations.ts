/** SQLite migrations applied by kysely's Migrator, on the store's own connection. */
import type Database from 'better-sqlite3';
import { Kysely, SqliteAdapter, SqliteDialect } from 'kysely';
import { migrateToLatest } from '../run-migrations.js';

/** Applies what the file has not seen of `texts`, in one immediate transaction. */
export async function runSqliteMigrations(db: Database.Database, texts: readonly string[]): Promise<void> {
  // The store keeps its connection: kysely gets one it cannot close. Its transaction begins
  // immediate, so processes opening a new file together wait for the write lock instead of failing.
  const database = { prepare: (text: string) => db.prepare(text === 'begin' ? 'BEGIN IMMEDIATE' : text), close: () => undefined };
  const kysely = new Kysely<unknown>({ dialect: new TransactionalSqliteDialect({ database }) });
  try {
    // better-sqlite3 prepares one statement at a time; exec runs a migration's several, in kysely's transaction.
    await migrateToLatest(kysely, texts, async (_, text) => void db.exec(text));
  } finally {
    await kysely.destroy();
  }
}

/**
 * SQLite's DDL is transactional, but kysely's adapter says otherwise, and its Migrator then runs
 * migrations outside any transaction: a failure would leave half a version, and two processes
 * could both apply one. Saying so makes it run them in one transaction, begun immediate above.
 */
class TransactionalSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

class TransactionalSqliteDialect extends SqliteDialect {
  override createAdapter(): SqliteAdapter {
    return new TransactionalSqliteAdapter();
  }
}
