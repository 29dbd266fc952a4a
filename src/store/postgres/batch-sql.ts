/**
 * The SQL half of a bulk write: one lookup per table and project for the whole batch, then one
 * multi-row statement per table and chunk. Rows travel as parallel arrays expanded by `unnest`,
 * so every statement has a fixed text (prepared once per connection, by name) and a fixed
 * number of parameters, far from the protocol's 65535 limit however large the chunk.
 */
import type pg from 'pg';
import type { BatchKeys, BatchPlan, PrevExecution, PrevState, PrevVersion } from './batch-plan.js';
import { rowKey } from './batch-plan.js';

/** Rows per statement: bounds one Bind message (bodies travel hex-encoded inside arrays). */
const CHUNK_ROWS = 1000;

const PREV_CUSTOMERS = `SELECT customer_key, etag, version_key FROM customers
  WHERE project = $1 AND customer_key = ANY($2::text[]) AND has_record`;

const PREV_ALERTS = `SELECT alert_key, etag, version_key FROM alerts
  WHERE project = $1 AND alert_key = ANY($2::text[])`;

// Pairs, not two ANY lists: a cross product of customers and execution ids would probe the
// primary key once per combination.
const PREV_EXECUTIONS = `SELECT e.customer_key, e.execution_id, e.etag, e.sort_key, e.scenario_ids FROM executions e
  WHERE e.project = $1 AND (e.customer_key, e.execution_id) IN (SELECT * FROM unnest($2::text[], $3::text[]))`;

const UPSERT_CUSTOMERS = `INSERT INTO customers
    (project, customer_key, has_record, is_company, version_key, etag, body, wire, gz)
  SELECT t.project, t.customer_key, true, t.is_company, t.version_key, t.etag, t.body, t.wire, t.gz
  FROM unnest($1::text[], $2::text[], $3::boolean[], $4::text[], $5::text[], $6::bytea[], $7::text[], $8::bytea[])
    AS t(project, customer_key, is_company, version_key, etag, body, wire, gz)
  ON CONFLICT (project, customer_key) DO UPDATE SET has_record = true, is_company = excluded.is_company,
    version_key = excluded.version_key, etag = excluded.etag, body = excluded.body,
    wire = excluded.wire, gz = excluded.gz`;

const INSERT_NAMED_CUSTOMERS = `INSERT INTO customers (project, customer_key)
  SELECT * FROM unnest($1::text[], $2::text[]) ON CONFLICT (project, customer_key) DO NOTHING`;

const UPSERT_ALERTS = `INSERT INTO alerts (project, alert_key, version_key, etag, body, wire, gz)
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bytea[], $6::text[], $7::bytea[])
  ON CONFLICT (project, alert_key) DO UPDATE SET version_key = excluded.version_key, etag = excluded.etag,
    body = excluded.body, wire = excluded.wire, gz = excluded.gz`;

const DELETE_SCENARIOS = `DELETE FROM execution_scenarios
  WHERE (project, customer_key, scenario_id, sort_key, execution_id)
    IN (SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[]))`;

const UPSERT_EXECUTIONS = `INSERT INTO executions
    (project, customer_key, execution_id, sort_key, status, object_types, scenario_ids, etag, body, wire, gz)
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::integer[], $7::text[],
    $8::text[], $9::bytea[], $10::text[], $11::bytea[])
  ON CONFLICT (project, customer_key, execution_id) DO UPDATE SET sort_key = excluded.sort_key,
    status = excluded.status, object_types = excluded.object_types, scenario_ids = excluded.scenario_ids,
    etag = excluded.etag, body = excluded.body, wire = excluded.wire, gz = excluded.gz`;

const INSERT_SCENARIOS = `INSERT INTO execution_scenarios (project, customer_key, scenario_id, sort_key, execution_id)
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[]) ON CONFLICT DO NOTHING`;

/** Reads the stored version of every row the batch touches, one statement per table and project. */
export async function readPrevState(client: pg.PoolClient, keys: BatchKeys): Promise<PrevState> {
  const prev: PrevState = { customers: new Map(), alerts: new Map(), executions: new Map() };
  for (const [project, set] of keys.customers) {
    const r = await client.query<{ customer_key: string; etag: string; version_key: string | null }>({
      name: 'ccr_prev_customers',
      text: PREV_CUSTOMERS,
      values: [project, [...set]],
    });
    for (const row of r.rows) prev.customers.set(rowKey(project, row.customer_key), version(row));
  }
  for (const [project, set] of keys.alerts) {
    const r = await client.query<{ alert_key: string; etag: string; version_key: string | null }>({
      name: 'ccr_prev_alerts',
      text: PREV_ALERTS,
      values: [project, [...set]],
    });
    for (const row of r.rows) prev.alerts.set(rowKey(project, row.alert_key), version(row));
  }
  for (const [project, pairs] of keys.executions) {
    const list = [...pairs.values()];
    const r = await client.query<{
      customer_key: string;
      execution_id: string;
      etag: string;
      sort_key: string;
      scenario_ids: string;
    }>({
      name: 'ccr_prev_executions',
      text: PREV_EXECUTIONS,
      values: [project, list.map((p) => p.customerKey), list.map((p) => p.executionId)],
    });
    for (const row of r.rows) {
      const p: PrevExecution = {
        etag: row.etag,
        versionKey: row.sort_key,
        scenarioIds: JSON.parse(row.scenario_ids) as string[],
      };
      prev.executions.set(rowKey(project, row.customer_key, row.execution_id), p);
    }
  }
  return prev;
}

function version(row: { etag: string; version_key: string | null }): PrevVersion {
  return { etag: row.etag, versionKey: row.version_key };
}

/** Writes every row the plan stores, in the order SQLite would leave them. */
export async function writePlan(client: pg.PoolClient, plan: BatchPlan): Promise<void> {
  await bulk(client, 'ccr_upsert_customers', UPSERT_CUSTOMERS, plan.customers, (c) => [
    c.project, c.key, c.isCompany, c.versionKey, c.etag, c.body, c.wire, c.gz,
  ]);
  // After the upserts: a bare row must never replace a customer's record.
  await bulk(client, 'ccr_named_customers', INSERT_NAMED_CUSTOMERS, plan.namedCustomers, (c) => [
    c.project, c.customerKey,
  ]);
  await bulk(client, 'ccr_upsert_alerts', UPSERT_ALERTS, plan.alerts, (a) => [
    a.project, a.key, a.versionKey, a.etag, a.body, a.wire, a.gz,
  ]);
  // The scenario index is keyed by sort key: rows of the replaced version go before the new ones come.
  const stale = plan.executions.flatMap(({ item, previous }) =>
    previous === undefined ? [] : previous.scenarioIds.map((s) => ({ item, scenarioId: s, sortKey: previous.versionKey })),
  );
  await bulk(client, 'ccr_delete_scenarios', DELETE_SCENARIOS, stale, (d) => [
    d.item.project, d.item.customerKey, d.scenarioId, d.sortKey, d.item.executionId,
  ]);
  await bulk(client, 'ccr_upsert_executions', UPSERT_EXECUTIONS, plan.executions, ({ item: e, scenarioIds }) => [
    e.project, e.customerKey, e.executionId, e.versionKey, e.status, e.objectTypes, JSON.stringify(scenarioIds),
    e.etag, e.body, e.wire, e.gz,
  ]);
  const scenarioRows = plan.executions.flatMap(({ item, scenarioIds }) => scenarioIds.map((s) => ({ item, s })));
  await bulk(client, 'ccr_insert_scenarios', INSERT_SCENARIOS, scenarioRows, ({ item: e, s }) => [
    e.project, e.customerKey, s, e.versionKey, e.executionId,
  ]);
}

/** Runs a fixed `unnest` statement over `rows` in chunks, one array parameter per column. */
async function bulk<T>(
  client: pg.PoolClient,
  name: string,
  text: string,
  rows: readonly T[],
  columns: (row: T) => unknown[],
): Promise<void> {
  for (let start = 0; start < rows.length; start += CHUNK_ROWS) {
    const chunk = rows.slice(start, start + CHUNK_ROWS);
    const values: unknown[][] = [];
    for (const row of chunk) {
      columns(row).forEach((v, i) => (values[i] ??= []).push(v));
    }
    await client.query({ name, text, values });
  }
}
