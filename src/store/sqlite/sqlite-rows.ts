/**
 * Row writes of the SQLite adapter, shared by writeBatch (after its version rule has said
 * "stored") and importRows (which copies rows as they are, without the rule).
 */
import type Database from 'better-sqlite3';
import { API_KEY_COLUMNS, apiKeyValues } from '../api-key-columns.js';
import { ALERT_LISTING_COLUMN_LIST, ALERT_LISTING_UPDATES, alertListingValues } from '../alert-listing-columns.js';
import { RECORD_COLUMN_LIST, RECORD_COLUMN_UPDATES, recordValues } from '../record-columns.js';
import type { CompanyListing } from '../company-listing.js';
import { CompanySearchWrites } from './company-search-rows.js';
import type { AlertUpsert, CustomerUpsert, ExecutionUpsert, StoreRow } from '../store.js';
import { recordChange } from './sqlite-changes.js';

type Statement = Database.Statement<unknown[], unknown>;

/** Prepares (or reuses) a statement of the store's connection. */
export type Prepare = (sql: string) => Statement;

/** An execution's stored sort key and scenarios: where its scenario index rows sit. */
export interface StoredExecutionIndex {
  sortKey: string;
  scenarioIds: string[];
}

/** Writes a customer's record over whatever row the customer had. */
export function upsertCustomer(stmt: Prepare, c: CustomerUpsert, search: CompanySearchWrites): void {
  stmt(
    `INSERT INTO customers (project, customer_key, has_record, is_company, version_key, ${RECORD_COLUMN_LIST})
     VALUES (?, ?, 1, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (project, customer_key) DO UPDATE SET has_record = 1, is_company = excluded.is_company,
       version_key = excluded.version_key, ${RECORD_COLUMN_UPDATES}`,
  ).run(c.project, c.key, c.isCompany ? 1 : 0, c.versionKey, ...recordValues(c));
  if (c.company === null) removeCompanyListing(stmt, c.project, c.key, search);
  else if (c.company !== undefined) writeCompanyListing(stmt, c.project, c.key, c.company, search);
}

/** Writes a company's list row over the stored one; its search row goes to `search`. */
export function writeCompanyListing(stmt: Prepare, project: string, key: string, l: CompanyListing, search: CompanySearchWrites): void {
  const before = stmt('SELECT id FROM companies WHERE project = ? AND customer_key = ?').get(project, key);
  const { id } = stmt(
    `INSERT INTO companies (project, customer_key, sort_key, status, onboarding_level, risk_score, country, search_names, search_ids, ${RECORD_COLUMN_LIST})
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (project, customer_key) DO UPDATE SET sort_key = excluded.sort_key, status = excluded.status,
       onboarding_level = excluded.onboarding_level, risk_score = excluded.risk_score, country = excluded.country,
       search_names = excluded.search_names, search_ids = excluded.search_ids, ${RECORD_COLUMN_UPDATES}
     RETURNING id`,
  ).get(project, key, l.sortKey, l.status, l.onboardingLevel, l.riskScore, l.country, l.searchNames, l.searchIds, ...recordValues(l.summary)) as { id: number };
  // The search row follows: a renamed company no longer matches its old name.
  search.put(id, before !== undefined, project, l.searchNames, l.searchIds);
}

/** Takes a customer off the company list (it is no longer a company). */
function removeCompanyListing(stmt: Prepare, project: string, key: string, search: CompanySearchWrites): void {
  const row = stmt('DELETE FROM companies WHERE project = ? AND customer_key = ? RETURNING id').get(project, key) as { id: number } | undefined;
  if (row !== undefined) search.remove(row.id);
}

/** Makes a customer known; a bare row never erases a record already there. */
export function ensureCustomer(stmt: Prepare, project: string, customerKey: string): void {
  stmt('INSERT OR IGNORE INTO customers (project, customer_key) VALUES (?, ?)').run(project, customerKey);
}

/** Writes an alert, with its listing, over the stored one. */
export function upsertAlert(stmt: Prepare, a: AlertUpsert): void {
  stmt(
    `INSERT INTO alerts (project, alert_key, version_key, ${RECORD_COLUMN_LIST}, ${ALERT_LISTING_COLUMN_LIST})
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (project, alert_key) DO UPDATE SET version_key = excluded.version_key, ${RECORD_COLUMN_UPDATES},
       ${ALERT_LISTING_UPDATES}`,
  ).run(a.project, a.key, a.versionKey, ...recordValues(a), ...alertListingValues(a.listing, sqliteBool));
}

/** A boolean as SQLite stores it. */
export const sqliteBool = (b: boolean): number => (b ? 1 : 0);

/** Writes an execution over `previous`, moving its scenario index rows to the new sort key. */
export function replaceExecution(stmt: Prepare, e: ExecutionUpsert, previous: StoredExecutionIndex | undefined): void {
  if (previous !== undefined) {
    const del = stmt(
      `DELETE FROM execution_scenarios
       WHERE project = ? AND customer_key = ? AND scenario_id = ? AND sort_key = ? AND execution_id = ?`,
    );
    for (const s of previous.scenarioIds) del.run(e.project, e.customerKey, s, previous.sortKey, e.executionId);
  }
  const scenarioIds = [...new Set(e.scenarioIds)];
  stmt(
    `INSERT INTO executions
       (project, customer_key, execution_id, sort_key, status, object_types, scenario_ids, ${RECORD_COLUMN_LIST})
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (project, customer_key, execution_id) DO UPDATE SET sort_key = excluded.sort_key,
       status = excluded.status, object_types = excluded.object_types, scenario_ids = excluded.scenario_ids,
       ${RECORD_COLUMN_UPDATES}`,
  ).run(
    e.project,
    e.customerKey,
    e.executionId,
    e.versionKey,
    e.status,
    e.objectTypes,
    JSON.stringify(scenarioIds),
    ...recordValues(e),
  );
  const ins = stmt(
    `INSERT OR IGNORE INTO execution_scenarios (project, customer_key, scenario_id, sort_key, execution_id)
     VALUES (?, ?, ?, ?, ?)`,
  );
  for (const s of scenarioIds) ins.run(e.project, e.customerKey, s, e.versionKey, e.executionId);
}

/** Writes one chunk of exported rows as they are; the caller wraps it in a transaction. */
export function importSqliteRows(stmt: Prepare, rows: readonly StoreRow[]): void {
  const search = new CompanySearchWrites();
  importRowsOf(stmt, rows, search);
  search.apply(stmt);
}

function importRowsOf(stmt: Prepare, rows: readonly StoreRow[], search: CompanySearchWrites): void {
  for (const row of rows) {
    switch (row.kind) {
      case 'customer':
        upsertCustomer(stmt, row, search);
        break;
      case 'bareCustomer':
        ensureCustomer(stmt, row.project, row.customerKey);
        break;
      case 'companyListing':
        writeCompanyListing(stmt, row.project, row.key, row.listing, search);
        break;
      case 'alert':
        upsertAlert(stmt, row);
        break;
      case 'execution': {
        // Customers come first in an export, but an execution must never be left without one.
        ensureCustomer(stmt, row.project, row.customerKey);
        // Only a forced copy meets a stored version, whose index rows must go.
        const prev = stmt(
          'SELECT sort_key, scenario_ids FROM executions WHERE project = ? AND customer_key = ? AND execution_id = ?',
        ).get(row.project, row.customerKey, row.executionId) as { sort_key: string; scenario_ids: string } | undefined;
        const previous = prev && { sortKey: prev.sort_key, scenarioIds: JSON.parse(prev.scenario_ids) as string[] };
        replaceExecution(stmt, row, previous);
        break;
      }
      case 'accessLogBatch': {
        const b = row.batch;
        // A batch already there (a forced copy run again) is not appended twice.
        stmt(
          `INSERT INTO access_log_batches (project, first_at, last_at, entries, records)
           SELECT ?, ?, ?, ?, ? WHERE NOT EXISTS (SELECT 1 FROM access_log_batches WHERE project = ? AND first_at = ? AND entries = ?)`,
        ).run(b.project, b.firstAt, b.lastAt, b.entries, b.records, b.project, b.firstAt, b.entries);
        break;
      }
      case 'change':
        // In the order exported: each entry takes the next position of its project's feed.
        recordChange(stmt, row);
        break;
      case 'erasure':
        stmt(
          `INSERT INTO erasures (project, kind, record_key, erased_key) VALUES (?, ?, ?, ?)
           ON CONFLICT (project, kind, record_key) DO UPDATE SET erased_key = max(erased_key, excluded.erased_key)`,
        ).run(row.project, row.tombstone, row.recordKey, row.erasedKey);
        break;
      case 'fileDeletion':
        stmt('INSERT OR IGNORE INTO file_deletions (project, object_key) VALUES (?, ?)').run(row.project, row.objectKey);
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
