/** Kysely's Migrator over a list of SQL texts kept in code (names as schema-migrations.ts gives them). */
import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import { migrationName } from './schema-migrations.js';

/** The migrations of `texts`, each applied by `apply` inside the Migrator's transaction. */
function inCodeMigrations(texts: readonly string[], apply: (db: Kysely<unknown>, text: string) => Promise<void>): MigrationProvider {
  const migrations: Record<string, Migration> = {};
  texts.forEach((text, i) => {
    migrations[migrationName(i + 1)] = { up: (db) => apply(db, text) };
  });
  return { getMigrations: async () => migrations };
}

/** Applies what the schema has not seen of `texts`; throws the failure of the first migration that fails. */
export async function migrateToLatest(
  db: Kysely<unknown>,
  texts: readonly string[],
  apply: (db: Kysely<unknown>, text: string) => Promise<void>,
  schema?: string,
): Promise<void> {
  const migrator = new Migrator({ db, provider: inCodeMigrations(texts, apply), ...(schema !== undefined ? { migrationTableSchema: schema } : {}) });
  const { error } = await migrator.migrateToLatest();
  if (error !== undefined) throw error;
}
