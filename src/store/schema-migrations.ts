/**
 * Schema migrations of both dialects run by kysely's Migrator from a list of SQL texts kept in
 * code: version N is the migration named `000N`, recorded in `kysely_migration` once applied.
 */
import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';

/** The table kysely records applied migrations in. */
export const MIGRATION_TABLE = 'kysely_migration';

/** The name of the migration that takes a schema to `version`; names sort in version order. */
export function migrationName(version: number): string {
  return String(version).padStart(4, '0');
}

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
