/** The SQLite side of `copy`: exported rows written as they are, without the import's version rule. */
import type Database from 'better-sqlite3';
import { API_KEY_COLUMNS, apiKeyValues } from '../api-key-columns.js';
import type { ExecutionUpsert, StoreRow } from '../store.js';

type Statement = Database.Statement<unknown[], unknown>;

/** Prepares (or reuses) a statement of the store's connection. */
export type Prepare = (sql: string) => Statement;

/** Writes one chunk of exported rows; the caller wraps it in a transaction. */
export function importSqliteRows(stmt: Prepare, rows: readonly StoreRow[]): void {
  for (const row of rows) {
    switch (row.kind) {
      case 'customer':
        stmt(
          `INSERT INTO customers (project, customer_key, has_record, is_company, version_key, etag, body, wire, gz)
           VALUES (?, ?, 1, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (project, customer_key) DO UPDATE SET has_record = 1, is_company = excluded.is_company,
             version_key = excluded.version_key, etag = excluded.etag, body = excluded.body,
             wire = excluded.wire, gz = excluded.gz`,
        ).run(row.project, row.key, row.isCompany ? 1 : 0, row.versionKey, row.etag, row.body, row.wire, row.gz);
        break;
      case 'bareCustomer':
        // A bare row only says "known": it must never erase a record the target already has.
        stmt('INSERT OR IGNORE INTO customers (project, customer_key) VALUES (?, ?)').run(row.project, row.customerKey);
        break;
      case 'alert':
        stmt(
          `INSERT INTO alerts (project, alert_key, version_key, etag, body, wire, gz) VALUES (?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (project, alert_key) DO UPDATE SET version_key = excluded.version_key, etag = excluded.etag,
             body = excluded.body, wire = excluded.wire, gz = excluded.gz`,
        ).run(row.project, row.key, row.versionKey, row.etag, row.body, row.wire, row.gz);
        break;
      case 'execution':
        importExecution(stmt, row);
        break;
      case 'apiKey':
        stmt(
          `INSERT INTO api_keys (${API_KEY_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (id) DO UPDATE SET project = excluded.project, name = excluded.name, scopes = excluded.scopes,
             hash = excluded.hash, created_at = excluded.created_at, expires_at = excluded.expires_at,
             revoked_at = excluded.revoked_at`,
        ).run(...apiKeyValues(row.record));
        break;
    }
  }
}

/** Replaces an execution and its scenario index rows, keeping its customer known. */
function importExecution(stmt: Prepare, e: ExecutionUpsert): void {
  // Customers come first in an export, but an execution must never be left without one.
  stmt('INSERT OR IGNORE INTO customers (project, customer_key) VALUES (?, ?)').run(e.project, e.customerKey);
  // Only a forced copy meets a stored version; its index rows sit under its own sort key.
  const prev = stmt(
    'SELECT sort_key, scenario_ids FROM executions WHERE project = ? AND customer_key = ? AND execution_id = ?',
  ).get(e.project, e.customerKey, e.executionId) as { sort_key: string; scenario_ids: string } | undefined;
  if (prev !== undefined) {
    const del = stmt(
      `DELETE FROM execution_scenarios
       WHERE project = ? AND customer_key = ? AND scenario_id = ? AND sort_key = ? AND execution_id = ?`,
    );
    for (const s of JSON.parse(prev.scenario_ids) as string[]) {
      del.run(e.project, e.customerKey, s, prev.sort_key, e.executionId);
    }
  }
  const scenarioIds = [...new Set(e.scenarioIds)];
  stmt(
    `INSERT INTO executions
       (project, customer_key, execution_id, sort_key, status, object_types, scenario_ids, etag, body, wire, gz)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (project, customer_key, execution_id) DO UPDATE SET sort_key = excluded.sort_key,
       status = excluded.status, object_types = excluded.object_types, scenario_ids = excluded.scenario_ids,
       etag = excluded.etag, body = excluded.body, wire = excluded.wire, gz = excluded.gz`,
  ).run(
    e.project,
    e.customerKey,
    e.executionId,
    e.versionKey,
    e.status,
    e.objectTypes,
    JSON.stringify(scenarioIds),
    e.etag,
    e.body,
    e.wire,
    e.gz,
  );
  const ins = stmt(
    `INSERT OR IGNORE INTO execution_scenarios (project, customer_key, scenario_id, sort_key, execution_id)
     VALUES (?, ?, ?, ?, ?)`,
  );
  for (const s of scenarioIds) ins.run(e.project, e.customerKey, s, e.versionKey, e.executionId);
}
