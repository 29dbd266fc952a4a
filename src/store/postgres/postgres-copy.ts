/**
 * The PostgreSQL side of `copy`: a snapshot export, and an import in which exported rows become
 * a batch plan where every row is "stored", so writeBatch's bulk statements write them as they are.
 */
import type pg from 'pg';
import { API_KEY_COLUMNS, apiKeyValues } from '../api-key-columns.js';
import { exportChunks } from '../export-rows.js';
import type { AccessLogBatch } from '../../access-log/access-log.js';
import type { AlertUpsert, ApiKeyRecord, CompanyListingRow, CustomerUpsert, ErasureRow, ExecutionUpsert, FileDeletionRow, StoreRow } from '../store.js';
import { batchKeys, rowKey, type BatchPlan } from './batch-plan.js';
import { readPrevState, writePlan } from './batch-sql.js';
import { guarded } from './pg-errors.js';
import type { ChangeEntry } from '../change-items.js';
import { writeChanges } from './postgres-changes.js';

/** Streams every row from one repeatable-read snapshot, so writes going on meanwhile never tear the copy. */
export async function* exportPostgresRows(pool: pg.Pool, chunkRows: number): AsyncGenerator<StoreRow[]> {
  const client = await guarded('exportRows', () => pool.connect());
  let finished = false;
  let broken: Error | undefined;
  try {
    await guarded('exportRows', () => client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY'));
    yield* exportChunks(
      async (sql, params) => (await guarded('exportRows', () => client.query({ text: sql, values: [...params] }))).rows,
      'postgres',
      chunkRows,
    );
    await guarded('exportRows', () => client.query('COMMIT'));
    finished = true;
  } finally {
    // Also reached on failure and when the consumer stops early: a connection still inside the
    // transaction must not go back to the pool, so it is rolled back or else destroyed.
    if (!finished) await client.query('ROLLBACK').catch((e: Error) => (broken = e));
    client.release(broken);
  }
}

/** Writes one chunk of exported rows on `client`; the caller holds the transaction. */
export async function importPostgresRows(client: pg.PoolClient, rows: readonly StoreRow[]): Promise<void> {
  const customers: CustomerUpsert[] = [];
  const alerts: AlertUpsert[] = [];
  const executions: ExecutionUpsert[] = [];
  const named = new Map<string, { project: string; customerKey: string }>();
  const keys: ApiKeyRecord[] = [];
  const batches: AccessLogBatch[] = [];
  const listings: CompanyListingRow[] = [];
  const changes: ChangeEntry[] = [];
  const erasures: ErasureRow[] = [];
  const fileDeletions: FileDeletionRow[] = [];
  for (const row of rows) {
    if (row.kind === 'customer') customers.push(row);
    else if (row.kind === 'companyListing') listings.push(row);
    else if (row.kind === 'alert') alerts.push(row);
    else if (row.kind === 'apiKey') keys.push(row.record);
    else if (row.kind === 'accessLogBatch') batches.push(row.batch);
    else if (row.kind === 'bareCustomer') named.set(rowKey(row.project, row.customerKey), row);
    else if (row.kind === 'change') changes.push(row);
    else if (row.kind === 'erasure') erasures.push(row);
    else if (row.kind === 'fileDeletion') fileDeletions.push(row);
    else {
      executions.push(row);
      // Customers come first in an export, but an execution must never be left without one.
      named.set(rowKey(row.project, row.customerKey), { project: row.project, customerKey: row.customerKey });
    }
  }
  // Only a forced copy meets stored executions; their scenario index rows must go. On an empty
  // target this is one primary key probe per chunk.
  const prev = executions.length === 0 ? undefined : await readPrevState(client, batchKeys(executions));
  const plan: BatchPlan = {
    outcomes: [],
    customers,
    alerts,
    executions: executions.map((item) => ({
      item,
      scenarioIds: [...new Set(item.scenarioIds)],
      previous: prev?.executions.get(rowKey(item.project, item.customerKey, item.executionId)),
    })),
    namedCustomers: [...named.values()],
    companyListings: listings,
  };
  await writePlan(client, plan);
  // In the order exported; each entry takes a new position in its project's feed.
  await writeChanges(client, changes);
  if (erasures.length > 0) {
    await client.query(
      `INSERT INTO erasures (project, kind, record_key, erased_key) SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[])
       ON CONFLICT (project, kind, record_key) DO UPDATE SET erased_key = greatest(erasures.erased_key, excluded.erased_key)`,
      [erasures.map((e) => e.project), erasures.map((e) => e.tombstone), erasures.map((e) => e.recordKey), erasures.map((e) => e.erasedKey)],
    );
  }
  if (fileDeletions.length > 0) {
    await client.query('INSERT INTO file_deletions (project, object_key) SELECT * FROM unnest($1::text[], $2::text[]) ON CONFLICT DO NOTHING', [
      fileDeletions.map((f) => f.project),
      fileDeletions.map((f) => f.objectKey),
    ]);
  }
  for (const k of keys) {
    await client.query(
      `INSERT INTO api_keys (${API_KEY_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (id) DO UPDATE SET project = excluded.project, name = excluded.name, scopes = excluded.scopes,
         hash = excluded.hash, created_at = excluded.created_at, expires_at = excluded.expires_at,
         revoked_at = excluded.revoked_at`,
      apiKeyValues(k),
    );
  }
  for (const b of batches) {
    // A batch already there (a forced copy run again) is not appended twice.
    await client.query(
      `INSERT INTO access_log_batches (project, first_at, last_at, entries, records)
       SELECT $1, $2, $3, $4, $5 WHERE NOT EXISTS (SELECT 1 FROM access_log_batches WHERE project = $1 AND first_at = $2 AND entries = $4)`,
      [b.project, b.firstAt, b.lastAt, b.entries, b.records],
    );
  }
}
