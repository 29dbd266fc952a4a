/** The keyset page query of a customer's executions, shared by the SQL dialects. */
import { RULE_OBJECT_TYPES } from '../contract/enums.js';
import { ALL_FIELDS, type ReadFields } from '../wire/record-bytes.js';
import { BODY_AS_STORED, fieldsKey, recordOf, selectFields, type BodySelect, type FieldRow } from './record-columns.js';
import type { ExecutionFilter, ExecutionPosition, StoredExecution } from './store.js';

/** SQL text and its parameters, with placeholders written by the dialect. */
export interface PageQuery {
  /** Names the statement's text apart from its parameters, for prepared statement caches. */
  statementKey: string;
  sql: string;
  params: unknown[];
  /**
   * Whether the rows may lie far apart in the index read: a condition checked entry by entry (a
   * filter on a column the index is not ordered by), or every match ranked (a search). Its cost is
   * then not bounded by the page size, and a few matches in a large project cost a walk of all of it.
   */
  scans: boolean;
}

/**
 * Builds one range scan over the page index (or the scenario index when a scenarioId is given),
 * starting strictly after `after`: paging deep costs the same as the first page. Rows carry
 * the stored bytes `fields` asks for.
 */
export function executionPageQuery(
  project: string,
  customerKey: string,
  filter: ExecutionFilter,
  after: ExecutionPosition | undefined,
  limit: number,
  placeholder: (n: number) => string,
  fields: ReadFields = ALL_FIELDS,
  bodyAs: BodySelect = BODY_AS_STORED,
): PageQuery {
  const params: unknown[] = [];
  const p = (value: unknown): string => {
    params.push(value);
    return placeholder(params.length);
  };
  // Scan the scenario index when filtering by scenario; it carries the same sort columns.
  const scan = filter.scenarioId === undefined ? 'e' : 's';
  const where = [`${scan}.project = ${p(project)}`, `${scan}.customer_key = ${p(customerKey)}`];
  const key: string[] = [scan, filter.order, fieldsKey(fields)];
  if (filter.scenarioId !== undefined) where.push(`s.scenario_id = ${p(filter.scenarioId)}`);
  if (filter.from !== undefined) {
    where.push(`${scan}.sort_key >= ${p(filter.from)}`);
    key.push('from');
  }
  if (filter.to !== undefined) {
    where.push(`${scan}.sort_key < ${p(filter.to)}`);
    key.push('to');
  }
  if (after !== undefined) {
    const cmp = filter.order === 'desc' ? '<' : '>';
    where.push(`(${scan}.sort_key, ${scan}.execution_id) ${cmp} (${p(after.sortKey)}, ${p(after.executionId)})`);
    key.push('after');
  }
  if (filter.statuses !== undefined && filter.statuses.length > 0) {
    where.push(`e.status IN (${filter.statuses.map((s) => p(s)).join(', ')})`);
    key.push(`st${filter.statuses.length}`);
  }
  if (filter.objectType !== undefined) {
    where.push(`(e.object_types & ${p(objectTypeBit(filter.objectType))}) <> 0`);
    key.push('ot');
  }
  const dir = filter.order === 'desc' ? 'DESC' : 'ASC';
  const from =
    scan === 'e'
      ? 'executions e'
      : 'execution_scenarios s JOIN executions e ON e.project = s.project AND e.customer_key = s.customer_key AND e.execution_id = s.execution_id';
  const sql =
    `SELECT e.execution_id, e.sort_key, ${selectFields(fields, 'e', bodyAs)} FROM ${from} ` +
    `WHERE ${where.join(' AND ')} ORDER BY ${scan}.sort_key ${dir}, ${scan}.execution_id ${dir} LIMIT ${p(limit)}`;
  const scans = (filter.statuses !== undefined && filter.statuses.length > 0) || filter.objectType !== undefined;
  return { statementKey: key.join(':'), sql, params, scans };
}

/** A row of the page query as the drivers return it. */
export type PageRow = FieldRow & {
  execution_id: string;
  sort_key: string;
};

/** The store's shape of a page row. */
export function pageRow(r: PageRow): StoredExecution {
  return { executionId: r.execution_id, sortKey: r.sort_key, ...recordOf(r) };
}

/** The bit of a RuleObjectType in an execution's `object_types` set. */
export function objectTypeBit(objectType: string): number {
  const i = (RULE_OBJECT_TYPES as readonly string[]).indexOf(objectType);
  return i < 0 ? 0 : 1 << i;
}
