/** Every stored row of a SQLite store file, in a stable order, for comparing two stores. */
import Database from 'better-sqlite3';

/** The store's records as plain rows (bodies as hex); the access log and keys are left out. */
export function dumpSqliteStore(file: string): { customers: unknown[]; alerts: unknown[]; executions: unknown[]; scenarios: unknown[] } {
  const db = new Database(file, { readonly: true });
  try {
    return {
      customers: db.prepare('SELECT project, customer_key, has_record, is_company, version_key, etag, hex(body) AS body FROM customers ORDER BY 1, 2').all(),
      alerts: db.prepare('SELECT project, alert_key, etag, hex(body) AS body, hex(gz) AS gz FROM alerts ORDER BY 1, 2').all(),
      executions: db.prepare('SELECT project, customer_key, execution_id, sort_key, status, object_types, scenario_ids, etag FROM executions ORDER BY 1, 2, 3').all(),
      scenarios: db.prepare('SELECT * FROM execution_scenarios ORDER BY 1, 2, 3, 4, 5').all(),
    };
  } finally {
    db.close();
  }
}

/** True when every row of `part` is also, identically, in `whole`: a partial store holds only whole records. */
export function isSubsetOf(part: ReturnType<typeof dumpSqliteStore>, whole: ReturnType<typeof dumpSqliteStore>): boolean {
  return (Object.keys(part) as (keyof typeof part)[]).every((table) => {
    const rows = new Set(whole[table].map((r) => JSON.stringify(r)));
    return part[table].every((r) => rows.has(JSON.stringify(r)));
  });
}

/** SQLite's own verdict on the file's structure ("ok" when sound). */
export function integrityOf(file: string): string {
  const db = new Database(file, { readonly: true });
  try {
    return (db.pragma('integrity_check', { simple: true }) as string) ?? '';
  } finally {
    db.close();
  }
}
