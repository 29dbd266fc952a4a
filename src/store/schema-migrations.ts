/**
 * How both dialects record schema migrations: version N is the migration named `000N`, a row of
 * `kysely_migration` once applied. Kysely's Migrator applies them (run-migrations.ts), loaded only
 * when a store has something to apply, so a start-up does not load its module (docs/architecture.md).
 */

/** The table kysely records applied migrations in. */
export const MIGRATION_TABLE = 'kysely_migration';

/** That table as kysely's Migrator creates it, for adopting a store an earlier runner migrated. */
export const CREATE_MIGRATION_TABLE = `CREATE TABLE ${MIGRATION_TABLE} (name varchar(255) NOT NULL PRIMARY KEY, timestamp varchar(255) NOT NULL)`;

/** The name of the migration that takes a schema to `version`; names sort in version order. */
export function migrationName(version: number): string {
  return String(version).padStart(4, '0');
}
