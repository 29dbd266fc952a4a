/** A schema as an older build left it: the migrations before the one that introduced something. */

/** Every migration before the first whose SQL contains `marker` (a table, column or meta key it adds). */
export function migrationsBefore(migrations: readonly string[], marker: string): string[] {
  const at = migrations.findIndex((sql) => sql.includes(marker));
  if (at < 0) throw new Error(`no migration introduces ${marker}`);
  return migrations.slice(0, at);
}
