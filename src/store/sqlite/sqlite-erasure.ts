/**
 * Erasure and retention on SQLite: a customer's rows, or old records, removed with their company
 * list, search and feed rows, in the caller's transaction. The connection deletes securely
 * (secure_delete, FTS5 secure-delete), so the removed bytes are overwritten, not only unlinked.
 */
import { instantKey } from '../../contract/date-time.js';
import { erasedChange, feedRecord } from '../change-items.js';
import type { Change } from '../../contract/change.js';
import { documentKeysOf, PENDING_FILES_LIMIT, tombstoneKey, type Erasure, type FileRef, type PruneKind, type TombstoneKind } from '../erasure.js';
import { recordChange } from './sqlite-changes.js';
import type { Prepare } from './sqlite-rows.js';

/** Records removed per transaction by a prune: other writers get their turn between chunks. */
export const PRUNE_CHUNK = 1000;

/** Erases `customerKey` of `project` (see Store.eraseCustomer); the caller holds the write transaction. */
export function eraseSqliteCustomer(stmt: Prepare, project: string, customerKey: string, dryRun: boolean, now: Date): Erasure {
  const customer = stmt('SELECT has_record, is_company, body, version_key FROM customers WHERE project = ? AND customer_key = ?').get(project, customerKey) as
    | { has_record: number; is_company: number; body: Buffer | null; version_key: string | null }
    | undefined;
  const executionRows = stmt('SELECT execution_id, sort_key FROM executions WHERE project = ? AND customer_key = ?').all(project, customerKey) as { execution_id: string; sort_key: string }[];
  const executions = executionRows.map((e) => e.execution_id);
  const alerts = stmt('SELECT alert_key, body, version_key FROM alerts WHERE project = ? AND customer_key = ?').all(project, customerKey) as {
    alert_key: string;
    body: Buffer;
    version_key: string | null;
  }[];
  const hasRecord = customer?.has_record === 1;
  const documents = new Set([...documentKeysOf('customer', hasRecord ? customer!.body : null), ...alerts.flatMap((a) => documentKeysOf('alert', a.body))]);
  const counts = { customers: hasRecord ? 1 : 0, executions: executions.length, alerts: alerts.length, documents: documents.size };
  if (dryRun) return { ...counts, files: [] };

  const changedAt = now.toISOString();
  if (hasRecord) eraseEntry(stmt, project, feedRecord('customer', customerKey), { kind: customer!.is_company === 1 ? 'company' : 'customer', id: customerKey, customerId: null }, changedAt);
  for (const id of executions) eraseEntry(stmt, project, feedRecord('execution', customerKey, id), { kind: 'execution', id, customerId: customerKey }, changedAt);
  for (const a of alerts) eraseEntry(stmt, project, feedRecord('alert', a.alert_key), { kind: 'alert', id: a.alert_key, customerId: customerKey }, changedAt);

  stmt('DELETE FROM execution_scenarios WHERE project = ? AND customer_key = ?').run(project, customerKey);
  stmt('DELETE FROM executions WHERE project = ? AND customer_key = ?').run(project, customerKey);
  stmt('DELETE FROM alerts WHERE project = ? AND customer_key = ?').run(project, customerKey);
  const listed = stmt('DELETE FROM companies WHERE project = ? AND customer_key = ? RETURNING id').get(project, customerKey) as { id: number } | undefined;
  if (listed !== undefined) stmt('DELETE FROM company_search WHERE rowid = ?').run(listed.id);
  stmt('DELETE FROM customers WHERE project = ? AND customer_key = ?').run(project, customerKey);

  const erasedKey = tombstoneKey(instantKey(changedAt), [customer?.version_key, ...executionRows.map((e) => e.sort_key), ...alerts.map((a) => a.version_key)]);
  tombstone(stmt, project, 'customer', customerKey, erasedKey);
  for (const a of alerts) tombstone(stmt, project, 'alert', a.alert_key, erasedKey);
  for (const objectKey of documents) pendFile(stmt, project, objectKey);
  const files = (stmt('SELECT object_key FROM file_deletions WHERE project = ? LIMIT ?').pluck().all(project, PENDING_FILES_LIMIT) as string[]).map((objectKey) => ({ project, objectKey }));
  return { ...counts, files };
}

/** The erasure instant key of a record's tombstones (its own, and its customer's), the later one; undefined when none. */
export function sqliteErasedKey(stmt: Prepare, project: string, kind: TombstoneKind, key: string, customerKey?: string | null): string | undefined {
  const own = stmt('SELECT erased_key FROM erasures WHERE project = ? AND kind = ? AND record_key = ?').pluck().get(project, kind, key) as string | undefined;
  if (kind === 'customer' || customerKey === undefined || customerKey === null) return own;
  const customer = stmt("SELECT erased_key FROM erasures WHERE project = ? AND kind = 'customer' AND record_key = ?").pluck().get(project, customerKey) as string | undefined;
  return own === undefined ? customer : customer === undefined || own > customer ? own : customer;
}

/** Whether any tombstone exists: an import into a store without erasures skips the lookups. */
export function sqliteHasErasures(stmt: Prepare): boolean {
  return stmt('SELECT 1 FROM erasures LIMIT 1').get() !== undefined;
}

/** A position in a prune's keyset walk: the last row's rowid. */
export type PruneStep = { records: number; documents: number; last: number | undefined };

/**
 * Removes up to PRUNE_CHUNK records of `kind` before `beforeKey` after rowid `after`, with their
 * scenario, feed and pending-file rows; a dry run counts instead. The caller holds the transaction.
 */
export function pruneSqliteChunk(stmt: Prepare, kind: PruneKind, beforeKey: string, after: number, dryRun: boolean, now: Date): PruneStep {
  const changedAt = now.toISOString();
  if (kind === 'executions') {
    const rows = stmt(
      'SELECT rowid, project, customer_key, execution_id, sort_key, scenario_ids FROM executions WHERE rowid > ? AND sort_key < ? ORDER BY rowid LIMIT ?',
    ).all(after, beforeKey, PRUNE_CHUNK) as { rowid: number; project: string; customer_key: string; execution_id: string; sort_key: string; scenario_ids: string }[];
    if (!dryRun) {
      const scenario = stmt('DELETE FROM execution_scenarios WHERE project = ? AND customer_key = ? AND scenario_id = ? AND sort_key = ? AND execution_id = ?');
      for (const r of rows) {
        eraseEntry(stmt, r.project, feedRecord('execution', r.customer_key, r.execution_id), { kind: 'execution', id: r.execution_id, customerId: r.customer_key }, changedAt);
        for (const s of JSON.parse(r.scenario_ids) as string[]) scenario.run(r.project, r.customer_key, s, r.sort_key, r.execution_id);
        stmt('DELETE FROM executions WHERE rowid = ?').run(r.rowid);
      }
    }
    return { records: rows.length, documents: 0, last: rows.length < PRUNE_CHUNK ? undefined : rows[rows.length - 1]!.rowid };
  }
  const rows = stmt(
    'SELECT rowid, project, alert_key, customer_key, body FROM alerts WHERE rowid > ? AND updated_key < ? ORDER BY rowid LIMIT ?',
  ).all(after, beforeKey, PRUNE_CHUNK) as { rowid: number; project: string; alert_key: string; customer_key: string | null; body: Buffer }[];
  let documents = 0;
  for (const r of rows) {
    const keys = new Set(documentKeysOf('alert', r.body));
    documents += keys.size;
    if (dryRun) continue;
    eraseEntry(stmt, r.project, feedRecord('alert', r.alert_key), { kind: 'alert', id: r.alert_key, customerId: r.customer_key }, changedAt);
    stmt('DELETE FROM alerts WHERE rowid = ?').run(r.rowid);
    for (const objectKey of keys) pendFile(stmt, r.project, objectKey);
  }
  return { records: rows.length, documents, last: rows.length < PRUNE_CHUNK ? undefined : rows[rows.length - 1]!.rowid };
}

/** Files still to delete, of every project. */
export function sqlitePendingFiles(stmt: Prepare): FileRef[] {
  return (stmt('SELECT project, object_key FROM file_deletions LIMIT ?').all(PENDING_FILES_LIMIT) as { project: string; object_key: string }[]).map((r) => ({
    project: r.project,
    objectKey: r.object_key,
  }));
}

/** Replaces a record's feed entry with its erase item. */
function eraseEntry(stmt: Prepare, project: string, record: string, fallback: Pick<Change, 'kind' | 'id' | 'customerId'>, changedAt: string): void {
  const before = stmt('SELECT item FROM changes WHERE project = ? AND record = ?').pluck().get(project, record) as Buffer | undefined;
  recordChange(stmt, erasedChange(project, record, before, fallback, changedAt));
}

/** Records an erasure instant; a later one replaces an earlier one. */
function tombstone(stmt: Prepare, project: string, kind: TombstoneKind, key: string, erasedKey: string): void {
  stmt(
    `INSERT INTO erasures (project, kind, record_key, erased_key) VALUES (?, ?, ?, ?)
     ON CONFLICT (project, kind, record_key) DO UPDATE SET erased_key = max(erased_key, excluded.erased_key)`,
  ).run(project, kind, key, erasedKey);
}

function pendFile(stmt: Prepare, project: string, objectKey: string): void {
  stmt('INSERT OR IGNORE INTO file_deletions (project, object_key) VALUES (?, ?)').run(project, objectKey);
}
