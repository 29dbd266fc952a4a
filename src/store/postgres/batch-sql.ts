/**
 * The SQL half of a bulk write: one lookup per table and project for the whole batch (key arrays,
 * one parameter each), then one multi-row VALUES statement per table and chunk. VALUES rather
 * than unnest for the writes: bytea parameters travel in binary instead of hex inside array
 * literals, and a plain multi-row INSERT is what distributed PostgreSQL (Citus, YugabyteDB)
 * routes row by row to shards.
 */
import type pg from 'pg';
import type { BatchKeys, BatchPlan, PrevExecution, PrevState, PrevVersion } from './batch-plan.js';
import { rowKey } from './batch-plan.js';
import { ALERT_LISTING_COLUMN_LIST, ALERT_LISTING_COLUMNS, ALERT_LISTING_UPDATES, alertListingValues } from '../alert-listing-columns.js';
import { RECORD_COLUMN_LIST, RECORD_COLUMN_UPDATES, recordValues } from '../record-columns.js';

/** Rows per statement, at most; also bounded by the protocol's 65535 parameters per statement. */
const CHUNK_ROWS = 1000;
const MAX_PARAMS = 65535;
/** Byte parameters per statement, about: the row that reaches it is the statement's last. */
export const STATEMENT_BYTES = 4 * 1024 * 1024;

const PREV_CUSTOMERS = `SELECT customer_key, etag, version_key FROM customers
  WHERE project = $1 AND customer_key = ANY($2::text[]) AND has_record`;

const PREV_ALERTS = `SELECT alert_key, etag, version_key FROM alerts
  WHERE project = $1 AND alert_key = ANY($2::text[])`;

// Pairs, not two ANY lists: a cross product of customers and execution ids would probe the
// primary key once per combination.
const PREV_EXECUTIONS = `SELECT e.customer_key, e.execution_id, e.etag, e.sort_key, e.scenario_ids FROM executions e
  WHERE e.project = $1 AND (e.customer_key, e.execution_id) IN (SELECT * FROM unnest($2::text[], $3::text[]))`;

const UPSERT_CUSTOMERS: Bulk = {
  head: `INSERT INTO customers (project, customer_key, has_record, is_company, version_key, ${RECORD_COLUMN_LIST}) VALUES`,
  columns: 8,
  tuple: (p) => `(${p[0]}, ${p[1]}, true, ${p.slice(2).join(', ')})`,
  tail: `ON CONFLICT (project, customer_key) DO UPDATE SET has_record = true, is_company = excluded.is_company,
    version_key = excluded.version_key, ${RECORD_COLUMN_UPDATES}`,
};

const UPSERT_COMPANIES: Bulk = {
  head: `INSERT INTO companies (project, customer_key, sort_key, status, onboarding_level, risk_score, country,
    search_names, search_ids, ${RECORD_COLUMN_LIST}) VALUES`,
  columns: 13,
  tail: `ON CONFLICT (project, customer_key) DO UPDATE SET sort_key = excluded.sort_key, status = excluded.status,
    onboarding_level = excluded.onboarding_level, risk_score = excluded.risk_score, country = excluded.country,
    search_names = excluded.search_names, search_ids = excluded.search_ids, ${RECORD_COLUMN_UPDATES}`,
};

// A customer written as another type than Company leaves the company list.
const DELETE_COMPANIES: Bulk = {
  head: 'DELETE FROM companies WHERE (project, customer_key) IN (VALUES',
  columns: 2,
  tail: ')',
};

const INSERT_NAMED_CUSTOMERS: Bulk = {
  head: 'INSERT INTO customers (project, customer_key) VALUES',
  columns: 2,
  tail: 'ON CONFLICT (project, customer_key) DO NOTHING',
};

const UPSERT_ALERTS: Bulk = {
  head: `INSERT INTO alerts (project, alert_key, version_key, ${RECORD_COLUMN_LIST}, ${ALERT_LISTING_COLUMN_LIST}) VALUES`,
  columns: 7 + ALERT_LISTING_COLUMNS.length,
  tail: `ON CONFLICT (project, alert_key) DO UPDATE SET version_key = excluded.version_key, ${RECORD_COLUMN_UPDATES},
    ${ALERT_LISTING_UPDATES}`,
};

const DELETE_SCENARIOS: Bulk = {
  head: `DELETE FROM execution_scenarios WHERE (project, customer_key, scenario_id, sort_key, execution_id) IN (VALUES`,
  columns: 5,
  tail: ')',
};

const UPSERT_EXECUTIONS: Bulk = {
  head: `INSERT INTO executions
    (project, customer_key, execution_id, sort_key, status, object_types, scenario_ids, ${RECORD_COLUMN_LIST}) VALUES`,
  columns: 11,
  tail: `ON CONFLICT (project, customer_key, execution_id) DO UPDATE SET sort_key = excluded.sort_key,
    status = excluded.status, object_types = excluded.object_types, scenario_ids = excluded.scenario_ids,
    ${RECORD_COLUMN_UPDATES}`,
};

const INSERT_SCENARIOS: Bulk = {
  head: 'INSERT INTO execution_scenarios (project, customer_key, scenario_id, sort_key, execution_id) VALUES',
  columns: 5,
  tail: 'ON CONFLICT DO NOTHING',
};

/**
 * Reads the stored version of every row the batch touches, one statement per table and project.
 * Unnamed statements, planned for each batch: a named one keeps the generic plan it settled on
 * while the table was nearly empty (a scan of the whole table), and an import of one customer's
 * 60,000 executions then ran at 235 records/s, each lookup reading every row written so far.
 */
export async function readPrevState(client: pg.PoolClient, keys: BatchKeys): Promise<PrevState> {
  const prev: PrevState = { customers: new Map(), alerts: new Map(), executions: new Map() };
  for (const [project, set] of keys.customers) {
    const r = await client.query<{ customer_key: string; etag: string; version_key: string | null }>({
      text: PREV_CUSTOMERS,
      values: [project, [...set]],
    });
    for (const row of r.rows) prev.customers.set(rowKey(project, row.customer_key), version(row));
  }
  for (const [project, set] of keys.alerts) {
    const r = await client.query<{ alert_key: string; etag: string; version_key: string | null }>({
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
  await bulk(client, UPSERT_CUSTOMERS, plan.customers, (c) => [
    c.project, c.key, c.isCompany, c.versionKey, ...recordValues(c),
  ]);
  const listings = plan.customers.flatMap((c) => (c.company ? [{ project: c.project, key: c.key, listing: c.company }] : []));
  listings.push(...(plan.companyListings ?? []));
  await bulk(client, UPSERT_COMPANIES, listings, ({ project, key, listing: l }) => [
    project, key, l.sortKey, l.status, l.onboardingLevel, l.riskScore, l.country, l.searchNames, l.searchIds, ...recordValues(l.summary),
  ]);
  await bulk(client, DELETE_COMPANIES, plan.customers.filter((c) => c.company === null), (c) => [c.project, c.key]);
  // After the upserts: a bare row must never replace a customer's record.
  await bulk(client, INSERT_NAMED_CUSTOMERS, plan.namedCustomers, (c) => [
    c.project, c.customerKey,
  ]);
  await bulk(client, UPSERT_ALERTS, plan.alerts, (a) => [
    a.project, a.key, a.versionKey, ...recordValues(a), ...alertListingValues(a.listing, (b) => b),
  ]);
  // The scenario index is keyed by sort key: rows of the replaced version go before the new ones come.
  const stale = plan.executions.flatMap(({ item, previous }) =>
    previous === undefined ? [] : previous.scenarioIds.map((s) => ({ item, scenarioId: s, sortKey: previous.versionKey })),
  );
  await bulk(client, DELETE_SCENARIOS, stale, (d) => [
    d.item.project, d.item.customerKey, d.scenarioId, d.sortKey, d.item.executionId,
  ]);
  await bulk(client, UPSERT_EXECUTIONS, plan.executions, ({ item: e, scenarioIds }) => [
    e.project, e.customerKey, e.executionId, e.versionKey, e.status, e.objectTypes, JSON.stringify(scenarioIds),
    ...recordValues(e),
  ]);
  const scenarioRows = plan.executions.flatMap(({ item, scenarioIds }) => scenarioIds.map((s) => ({ item, s })));
  await bulk(client, INSERT_SCENARIOS, scenarioRows, ({ item: e, s }) => [
    e.project, e.customerKey, s, e.versionKey, e.executionId,
  ]);
}

/** A multi-row statement: `head`, one tuple of `columns` placeholders per row, `tail`. */
interface Bulk {
  head: string;
  columns: number;
  tuple?: (placeholders: string[]) => string;
  tail: string;
}

/**
 * Runs a multi-row statement over `rows` in chunks within the parameter limit and about
 * STATEMENT_BYTES of byte parameters: pg assembles each statement's Bind message in buffers that
 * grow by copying, so a 32 MB batch sent whole held several times its size at once.
 */
async function bulk<T>(client: pg.PoolClient, stmt: Bulk, rows: readonly T[], columns: (row: T) => unknown[]): Promise<void> {
  const perChunk = Math.min(CHUNK_ROWS, Math.floor(MAX_PARAMS / stmt.columns));
  let values: unknown[] = [];
  let tuples: string[] = [];
  let bytes = 0;
  const send = async (): Promise<void> => {
    if (tuples.length === 0) return;
    const text = `${stmt.head} ${tuples.join(', ')} ${stmt.tail}`;
    const params = values;
    values = [];
    tuples = [];
    bytes = 0;
    await client.query({ text, values: params });
  };
  for (const row of rows) {
    const placeholders = columns(row).map((v) => {
      if (Buffer.isBuffer(v)) bytes += v.length;
      values.push(v);
      return `$${values.length}`;
    });
    tuples.push(stmt.tuple?.(placeholders) ?? `(${placeholders.join(', ')})`);
    if (tuples.length >= perChunk || bytes >= STATEMENT_BYTES) await send();
  }
  await send();
}
