/** The keyset page query of a project's alert list, shared by the SQL dialects. */
import { ALL_FIELDS, type ReadFields } from '../wire/record-bytes.js';
import type { PageQuery } from './execution-page-sql.js';
import { BODY_AS_STORED, BODY_AS_TEXT, fieldsKey, recordOf, selectFields, SUMMARY_COLUMNS, type BodySelect, type FieldRow } from './record-columns.js';
import type { AlertCountFilter, AlertFilter, AlertPosition, StoredAlertSummary } from './store.js';

/** How a dialect writes the page query: placeholders, booleans, the body column. */
export interface AlertPageDialect {
  placeholder: (n: number) => string;
  bool: (b: boolean) => unknown;
  bodyAs: BodySelect;
}

/**
 * One range scan over the sort's index (alerts_by_updated, alerts_by_created, or a customer's
 * when customerId is given), starting strictly after `after`; the filter columns are in each
 * index, so rows filtered out are skipped there. Rows carry the summary bytes `fields` asks for.
 */
export function alertPageQuery(
  project: string,
  filter: AlertFilter,
  after: AlertPosition | undefined,
  limit: number,
  dialect: AlertPageDialect,
  fields: ReadFields = ALL_FIELDS,
): PageQuery {
  const { where, key, params, p, checked } = alertWhere(project, filter, dialect);
  const sort = filter.sort === 'createdAt' ? 'a.created_key' : 'a.updated_key';
  // A bound on the other date is checked entry by entry too.
  const otherBound = filter.sort === 'createdAt' ? filter.updatedFrom ?? filter.updatedTo : filter.createdFrom ?? filter.createdTo;
  key.unshift(filter.sort === 'createdAt' ? 'c' : 'u', filter.order === 'desc' ? 'd' : 'a', fieldsKey(fields));
  if (after !== undefined) {
    const cmp = filter.order === 'desc' ? '<' : '>';
    where.push(`(${sort}, a.alert_key) ${cmp} (${p(after.sortKey)}, ${p(after.alertKey)})`);
    key.push('x');
  }
  const dir = filter.order === 'desc' ? 'DESC' : 'ASC';
  const sql =
    `SELECT a.alert_key, ${sort} AS sort_key, ${selectFields(fields, 'a', dialect.bodyAs, SUMMARY_COLUMNS)} FROM alerts a ` +
    `WHERE ${where.join(' AND ')} ORDER BY ${sort} ${dir}, a.alert_key ${dir} LIMIT ${p(limit)}`;
  return { statementKey: key.join(''), sql, params, scans: checked || otherBound !== undefined };
}

/** The WHERE terms of an alert filter, their parameters, and a statement key naming their shape. */
function alertWhere(
  project: string,
  filter: AlertCountFilter,
  dialect: AlertPageDialect,
): { where: string[]; key: string[]; params: unknown[]; p: (value: unknown) => string; checked: boolean } {
  const params: unknown[] = [];
  const p = (value: unknown): string => {
    params.push(value);
    return dialect.placeholder(params.length);
  };
  const where = [`a.project = ${p(project)}`];
  const key: string[] = [];
  // Every term but the customer and the dates is checked per index entry.
  let checked = false;
  const set = (column: string, name: string, values: readonly string[] | undefined): void => {
    if (values === undefined || values.length === 0) return;
    where.push(`a.${column} IN (${values.map((v) => p(v)).join(', ')})`);
    key.push(`${name}${values.length}`);
    checked = true;
  };
  if (filter.customerKey !== undefined) {
    where.push(`a.customer_key = ${p(filter.customerKey)}`);
    key.push('k');
  }
  set('status', 's', filter.statuses);
  set('severity', 'v', filter.severities);
  set('category', 'g', filter.categories);
  set('alert_type', 't', filter.types);
  if (filter.assignedTo === null) {
    where.push('a.assigned_to IS NULL');
    key.push('n');
    checked = true;
  } else if (filter.assignedTo !== undefined) {
    where.push(`a.assigned_to = ${p(filter.assignedTo)}`);
    key.push('w');
    checked = true;
  }
  if (filter.seen !== undefined) {
    where.push(`a.seen = ${p(dialect.bool(filter.seen))}`);
    key.push('e');
    checked = true;
  }
  const bound = (column: string, cmp: string, value: string | undefined, name: string): void => {
    if (value === undefined) return;
    where.push(`a.${column} ${cmp} ${p(value)}`);
    key.push(name);
  };
  bound('created_key', '>=', filter.createdFrom, 'cf');
  bound('created_key', '<', filter.createdTo, 'ct');
  bound('updated_key', '>=', filter.updatedFrom, 'uf');
  bound('updated_key', '<', filter.updatedTo, 'ut');
  return { where, key, params, p, checked };
}

/**
 * How many of a project's alerts match `filter`, by status: one scan of an index that carries
 * every filter column (a customer's when customerId is given), never the table's rows.
 */
export function alertCountQuery(project: string, filter: AlertCountFilter, dialect: AlertPageDialect): PageQuery {
  const { where, key, params } = alertWhere(project, filter, dialect);
  const sql = `SELECT a.status AS status, COUNT(*) AS n FROM alerts a WHERE ${where.join(' AND ')} GROUP BY a.status`;
  // Counting reads every matching entry of the range, whatever the filter.
  return { statementKey: `n${key.join('')}`, sql, params, scans: true };
}

/** A row of the count query as the drivers return it (PostgreSQL's count is a bigint, read as text). */
export interface AlertCountRow {
  status: string;
  n: number | string;
}

/** Per-status counts of the count query's rows. */
export function alertCountsOfRows(rows: readonly AlertCountRow[]): Map<string, number> {
  return new Map(rows.map((r) => [r.status, Number(r.n)]));
}

/** A row of the alert page query as the drivers return it. */
export type AlertPageRow = FieldRow & { alert_key: string; sort_key: string };

/** The store's shape of an alert page row. */
export function alertPageRow(r: AlertPageRow): StoredAlertSummary {
  return { alertKey: r.alert_key, sortKey: r.sort_key, ...recordOf(r) };
}

/** SQLite's way of writing the page query. */
export const SQLITE_ALERT_PAGE: AlertPageDialect = { placeholder: () => '?', bool: (b) => (b ? 1 : 0), bodyAs: BODY_AS_STORED };
/** PostgreSQL's: numbered placeholders, booleans as they are, the body read as text (BODY_AS_TEXT). */
export const POSTGRES_ALERT_PAGE: AlertPageDialect = { placeholder: (n) => `$${n}`, bool: (b) => b, bodyAs: BODY_AS_TEXT };
