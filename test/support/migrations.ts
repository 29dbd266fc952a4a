/** A schema as an older build left it: the migrations before the one that introduced something. */

/** Every migration before the first whose SQL contains `marker` (a table, column or meta key it adds). */
export function migrationsBefore(migrations: readonly string[], marker: string): string[] {
  const at = migrations.findIndex((sql) => sql.includes(marker));
  if (at < 0) throw new Error(`no migration introduces ${marker}`);
  return migrations.slice(0, at);
}

/**
 * SQL putting a SQLite store's per-record table of the access log back as it was before its rows
 * of bits (one row per record and batch), for a test that makes the store forget that migration.
 */
export const SQLITE_ACCESS_LOG_RECORDS_BEFORE_BITS = `DROP TABLE access_log_records;
  CREATE TABLE access_log_records (project TEXT NOT NULL, bucket INTEGER NOT NULL, record_id TEXT NOT NULL,
    batch_id INTEGER NOT NULL, PRIMARY KEY (project, bucket, record_id, batch_id)) WITHOUT ROWID;`;
