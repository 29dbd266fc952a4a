/**
 * Erasure and retention on PostgreSQL: a customer's rows, or old records, removed with their
 * company list, search and feed rows, in the caller's transaction (which holds the project's write
 * lock). Deleted tuples stay in the table files until the maintenance step of
 * docs/data-protection.md rewrites them.
 */
import type pg from 'pg';
import type { Change } from '../../contract/change.js';
import { instantKey } from '../../contract/date-time.js';
import { erasedChange, feedRecord, type ChangeEntry } from '../change-items.js';
import { documentKeysOf, PENDING_FILES_LIMIT, tombstoneKey, type Erasure, type FileRef, type PruneKind, type TombstoneKind } from '../erasure.js';
import { rowKey } from './batch-plan.js';
import type { Upsert } from '../store.js';

/**
 * The maintenance step after an erasure or prune (docs/data-protection.md): a DELETE leaves the
 * tuples' bytes in the table files, and a plain VACUUM only marks their space free; VACUUM FULL
 * writes each table and its indexes and TOAST anew, without them, and removes the old files.
 */
export const ERASURE_MAINTENANCE_SQL = 'VACUUM (FULL) customers, companies, alerts, executions, execution_scenarios, changes';

/** Records removed per transaction by a prune: other writers get their turn between chunks. */
export const PRUNE_CHUNK = 1000;

/** A record to take out of the feed: its identity there and its item's ids should it have no entry. */
interface FeedRemoval {
  project: string;
  record: string;
  fallback: Pick<Change, 'kind' | 'id' | 'customerId'>;
}

/** What an erasure read before deleting: enough to count, to shape the feed's erase items and to find the files. */
export interface CustomerRows {
  counts: { customers: number; executions: number; alerts: number; documents: number };
  removals: FeedRemoval[];
  alertKeys: string[];
  documents: string[];
  /** The erased records' versions: the tombstones hold the newest of them if it is after the erasure. */
  versions: (string | null)[];
}

/** Reads the rows an erasure of the customer removes. */
export async function readCustomerRows(client: pg.ClientBase, project: string, customerKey: string): Promise<CustomerRows> {
  const customer = (
    await client.query<{ has_record: boolean; is_company: boolean; body: Buffer | null; version_key: string | null }>(
      'SELECT has_record, is_company, body, version_key FROM customers WHERE project = $1 AND customer_key = $2',
      [project, customerKey],
    )
  ).rows[0];
  const executions = (
    await client.query<{ execution_id: string; sort_key: string }>('SELECT execution_id, sort_key FROM executions WHERE project = $1 AND customer_key = $2', [project, customerKey])
  ).rows;
  const alerts = (
    await client.query<{ alert_key: string; body: Buffer; version_key: string | null }>('SELECT alert_key, body, version_key FROM alerts WHERE project = $1 AND customer_key = $2', [
      project,
      customerKey,
    ])
  ).rows;
  const hasRecord = customer?.has_record === true;
  const documents = new Set([...documentKeysOf('customer', hasRecord ? customer!.body : null), ...alerts.flatMap((a) => documentKeysOf('alert', a.body))]);
  const removals: FeedRemoval[] = [];
  if (hasRecord) removals.push({ project, record: feedRecord('customer', customerKey), fallback: { kind: customer!.is_company ? 'company' : 'customer', id: customerKey, customerId: null } });
  for (const e of executions) removals.push({ project, record: feedRecord('execution', customerKey, e.execution_id), fallback: { kind: 'execution', id: e.execution_id, customerId: customerKey } });
  for (const a of alerts) removals.push({ project, record: feedRecord('alert', a.alert_key), fallback: { kind: 'alert', id: a.alert_key, customerId: customerKey } });
  return {
    counts: { customers: hasRecord ? 1 : 0, executions: executions.length, alerts: alerts.length, documents: documents.size },
    removals,
    alertKeys: alerts.map((a) => a.alert_key),
    documents: [...documents],
    versions: [customer?.version_key ?? null, ...executions.map((e) => e.sort_key), ...alerts.map((a) => a.version_key)],
  };
}

/** Deletes what `rows` found and leaves the tombstones and pending files; answers the erase items to write. */
export async function eraseCustomerRows(client: pg.ClientBase, project: string, customerKey: string, rows: CustomerRows, now: Date): Promise<{ erasure: Erasure; entries: ChangeEntry[] }> {
  const changedAt = now.toISOString();
  const entries = await erasedEntries(client, rows.removals, changedAt);
  for (const table of ['execution_scenarios', 'executions', 'alerts', 'companies', 'customers']) {
    await client.query(`DELETE FROM ${table} WHERE project = $1 AND customer_key = $2`, [project, customerKey]);
  }
  const kinds: TombstoneKind[] = ['customer', ...rows.alertKeys.map((): TombstoneKind => 'alert')];
  await client.query(
    `INSERT INTO erasures (project, kind, record_key, erased_key) SELECT $1, t.k, t.r, $4 FROM unnest($2::text[], $3::text[]) AS t(k, r)
     ON CONFLICT (project, kind, record_key) DO UPDATE SET erased_key = greatest(erasures.erased_key, excluded.erased_key)`,
    [project, kinds, [customerKey, ...rows.alertKeys], tombstoneKey(instantKey(changedAt), rows.versions)],
  );
  await pendFiles(client, rows.documents.map((objectKey) => ({ project, objectKey })));
  const files = (await client.query<{ object_key: string }>('SELECT object_key FROM file_deletions WHERE project = $1 LIMIT $2', [project, PENDING_FILES_LIMIT])).rows.map((r) => ({
    project,
    objectKey: r.object_key,
  }));
  return { erasure: { ...rows.counts, files }, entries };
}

/** The erase items of the removed records, each from its entry before (the ids as written). */
async function erasedEntries(client: pg.ClientBase, removals: readonly FeedRemoval[], changedAt: string): Promise<ChangeEntry[]> {
  if (removals.length === 0) return [];
  const r = await client.query<{ project: string; record: string; item: Buffer }>(
    'SELECT project, record, item FROM changes WHERE (project, record) IN (SELECT * FROM unnest($1::text[], $2::text[]))',
    [removals.map((x) => x.project), removals.map((x) => x.record)],
  );
  const before = new Map(r.rows.map((row) => [rowKey(row.project, row.record), row.item]));
  return removals.map((x) => erasedChange(x.project, x.record, before.get(rowKey(x.project, x.record)), x.fallback, changedAt));
}

async function pendFiles(client: pg.ClientBase, files: readonly FileRef[]): Promise<void> {
  if (files.length === 0) return;
  await client.query('INSERT INTO file_deletions (project, object_key) SELECT * FROM unnest($1::text[], $2::text[]) ON CONFLICT DO NOTHING', [
    files.map((f) => f.project),
    files.map((f) => f.objectKey),
  ]);
}

/**
 * The erasure instant keys a batch's records meet, by rowKey(project, kind, key): one statement
 * per project, for the customers, executions' customers, alerts and alerts' customers it names.
 */
export async function readErasures(client: pg.ClientBase, items: readonly Upsert[]): Promise<Map<string, string>> {
  const byProject = new Map<string, { customers: Set<string>; alerts: Set<string> }>();
  for (const item of items) {
    let keys = byProject.get(item.project);
    if (keys === undefined) byProject.set(item.project, (keys = { customers: new Set(), alerts: new Set() }));
    if (item.kind === 'customer') keys.customers.add(item.key);
    else if (item.kind === 'execution') keys.customers.add(item.customerKey);
    else {
      keys.alerts.add(item.key);
      keys.customers.add(item.listing.customerKey);
    }
  }
  const erased = new Map<string, string>();
  for (const [project, keys] of byProject) {
    const r = await client.query<{ kind: string; record_key: string; erased_key: string }>({
      text: `SELECT kind, record_key, erased_key FROM erasures WHERE project = $1
        AND ((kind = 'customer' AND record_key = ANY($2::text[])) OR (kind = 'alert' AND record_key = ANY($3::text[])))`,
      values: [project, [...keys.customers], [...keys.alerts]],
    });
    for (const row of r.rows) erased.set(rowKey(project, row.kind, row.record_key), row.erased_key);
  }
  return erased;
}

/** A position in a prune's keyset walk: the last row's key columns. */
export type PruneAfter = string[];

/** One chunk of a prune: the rows of `kind` before `beforeKey` after `after`, in key order. */
export async function pruneCandidates(client: pg.ClientBase, kind: PruneKind, beforeKey: string, after: PruneAfter | undefined): Promise<{ keys: string[][]; bodies: (Buffer | null)[] }> {
  if (kind === 'executions') {
    const start = after ?? ['', '', ''];
    const r = await client.query<{ project: string; customer_key: string; execution_id: string }>(
      `SELECT project, customer_key, execution_id FROM executions WHERE (project, customer_key, execution_id) > ($1, $2, $3) AND sort_key < $4
       ORDER BY project, customer_key, execution_id LIMIT $5`,
      [...start, beforeKey, PRUNE_CHUNK],
    );
    return { keys: r.rows.map((x) => [x.project, x.customer_key, x.execution_id]), bodies: r.rows.map(() => null) };
  }
  const start = after ?? ['', ''];
  const r = await client.query<{ project: string; alert_key: string; body: Buffer }>(
    `SELECT project, alert_key, body FROM alerts WHERE (project, alert_key) > ($1, $2) AND updated_key < $3 ORDER BY project, alert_key LIMIT $4`,
    [...start, beforeKey, PRUNE_CHUNK],
  );
  return { keys: r.rows.map((x) => [x.project, x.alert_key]), bodies: r.rows.map((x) => x.body) };
}

/** Deletes the chunk's rows that are still before `beforeKey` (a newer version may have arrived); answers how many and the erase items. */
export async function pruneRows(client: pg.ClientBase, kind: PruneKind, beforeKey: string, keys: readonly string[][], now: Date): Promise<{ records: number; entries: ChangeEntry[] }> {
  const changedAt = now.toISOString();
  const column = (i: number): string[] => keys.map((k) => k[i]!);
  if (kind === 'executions') {
    const r = await client.query<{ project: string; customer_key: string; execution_id: string; sort_key: string; scenario_ids: string }>(
      `DELETE FROM executions e USING unnest($1::text[], $2::text[], $3::text[]) AS t(p, c, x)
       WHERE e.project = t.p AND e.customer_key = t.c AND e.execution_id = t.x AND e.sort_key < $4
       RETURNING e.project, e.customer_key, e.execution_id, e.sort_key, e.scenario_ids`,
      [column(0), column(1), column(2), beforeKey],
    );
    const scenarios = r.rows.flatMap((x) => (JSON.parse(x.scenario_ids) as string[]).map((s) => [x.project, x.customer_key, s, x.sort_key, x.execution_id]));
    if (scenarios.length > 0) {
      await client.query(
        `DELETE FROM execution_scenarios s USING unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[]) AS t(p, c, sid, sk, x)
         WHERE s.project = t.p AND s.customer_key = t.c AND s.scenario_id = t.sid AND s.sort_key = t.sk AND s.execution_id = t.x`,
        [0, 1, 2, 3, 4].map((i) => scenarios.map((row) => row[i]!)),
      );
    }
    const removals = r.rows.map((x) => ({ project: x.project, record: feedRecord('execution', x.customer_key, x.execution_id), fallback: { kind: 'execution' as const, id: x.execution_id, customerId: x.customer_key } }));
    return { records: r.rows.length, entries: await erasedEntries(client, removals, changedAt) };
  }
  const r = await client.query<{ project: string; alert_key: string; customer_key: string | null; body: Buffer }>(
    `DELETE FROM alerts a USING unnest($1::text[], $2::text[]) AS t(p, k)
     WHERE a.project = t.p AND a.alert_key = t.k AND a.updated_key < $3 RETURNING a.project, a.alert_key, a.customer_key, a.body`,
    [column(0), column(1), beforeKey],
  );
  await pendFiles(client, r.rows.flatMap((x) => [...new Set(documentKeysOf('alert', x.body))].map((objectKey) => ({ project: x.project, objectKey }))));
  const removals = r.rows.map((x) => ({ project: x.project, record: feedRecord('alert', x.alert_key), fallback: { kind: 'alert' as const, id: x.alert_key, customerId: x.customer_key } }));
  return { records: r.rows.length, entries: await erasedEntries(client, removals, changedAt) };
}

/** Files still to delete, of every project. */
export async function postgresPendingFiles(client: pg.ClientBase | pg.Pool): Promise<FileRef[]> {
  const r = await client.query<{ project: string; object_key: string }>('SELECT project, object_key FROM file_deletions LIMIT $1', [PENDING_FILES_LIMIT]);
  return r.rows.map((x) => ({ project: x.project, objectKey: x.object_key }));
}

/** Forgets files no longer pending. */
export async function forgetPostgresFiles(client: pg.ClientBase | pg.Pool, files: readonly FileRef[]): Promise<void> {
  await client.query('DELETE FROM file_deletions f USING unnest($1::text[], $2::text[]) AS t(p, k) WHERE f.project = t.p AND f.object_key = t.k', [
    files.map((f) => f.project),
    files.map((f) => f.objectKey),
  ]);
}
