/**
 * How both dialects record schema migrations: version N is the migration named `000N`, a row of
 * `kysely_migration` once applied. Kysely's Migrator applies them (run-migrations.ts), loaded only
 * when a store has something to apply: its module costs a start-up about 110 ms.
 */
/** The table kysely records applied migrations in. */
export const MIGRATION_TABLE = 'kysely_migration';

/** The name of the migration that takes a schema to `version`; names sort in version order. */
export function migrationName(version: number): string {
  return String(version).padStart(4, '0');
}
