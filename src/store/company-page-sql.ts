/**
 * The page query of the company list, for both dialects. Without a search it is one range scan of
 * the page index in updatedAt order; with one, the search index (SQLite FTS5, PostgreSQL GIN over a
 * tsvector) finds the matches, ranked by relevance then key. Paging starts strictly after the
 * position the cursor holds, in either order.
 */
import { ALL_FIELDS, type ReadFields } from '../wire/record-bytes.js';
import { queryWords, searchTag } from './company-search.js';
import type { PageQuery } from './execution-page-sql.js';
import { BODY_AS_STORED, BODY_AS_TEXT, fieldsKey, recordOf, selectFields, type BodySelect, type FieldRow } from './record-columns.js';
import type { CompanyFilter, CompanyPosition, StoredCompany } from './store.js';

/** How a dialect writes what differs. */
interface CompanyDialect {
  placeholder: (n: number) => string;
  bodyAs: BodySelect;
  /** The FROM, the match condition and the score of a search of `words` in `project`'s terms; `p` binds a parameter. */
  search: (p: (value: unknown) => string, words: readonly string[], project: string) => { from: string; where: string; score: string };
  /** A filter column as a search compares it: the search index, not the page index, must find the rows. */
  searchColumn: (column: string) => string;
  /** The score parameter of a cursor position, as the score column compares. */
  scoreParam: (placeholder: string) => string;
}

// Stands for the project's tag in PostgreSQL's query text until the server puts the tag in its place: never in a word.
const TAG_MARK = '~';

/**
 * The match expression of the query words, each behind `open` (the project's tag) and matched as a
 * prefix: text, never syntax, as a word holds only letters and digits. Several words may also be
 * one identifier written with separators ("SG 809-927" for SG809927136).
 */
function matchText(words: readonly string[], open: string, close: string, and: string, or: string): string {
  const all = words.map((w) => `${open}${w}${close}`).join(and);
  return words.length > 1 ? `(${all})${or}${open}${words.join('')}${close}` : all;
}

export const SQLITE_COMPANIES: CompanyDialect = {
  placeholder: () => '?',
  bodyAs: BODY_AS_STORED,
  // bm25 is lower for better matches; a name weighs ten times an identifier.
  search: (p, words, project) => ({
    from: 'company_search JOIN companies c ON c.id = company_search.rowid',
    where: `company_search MATCH ${p(matchText(words, `"${searchTag(project)}`, '"*', ' AND ', ' OR '))}`,
    score: 'bm25(company_search, 10.0, 1.0)',
  }),
  // Unary + is SQLite's way of saying no index applies: the FTS table, not the page index, finds the rows.
  searchColumn: (column) => `+${column}`,
  scoreParam: (p) => p,
};

export const POSTGRES_COMPANIES: CompanyDialect = {
  placeholder: (n) => `$${n}`,
  bodyAs: BODY_AS_TEXT,
  // ts_rank with a name (A) weighing ten times an identifier (B), as SQLite's bm25 weights them.
  // Higher is better: negated so both dialects page by ascending score. The project's tag is
  // computed by the server as in the index's generated column (migration 15).
  search: (p, words, project) => ({
    from:
      `companies c CROSS JOIN to_tsquery('simple', replace(${p(matchText(words, TAG_MARK, ':*', ' & ', ' | '))}, '${TAG_MARK}', ` +
      `'t' || lpad(to_hex(hashtextextended(${p(project)}::text COLLATE "C", 0) & 4294967295), 8, '0'))) AS q`,
    where: 'c.search @@ q',
    score: "(-ts_rank('{0.1, 0.2, 0.1, 1.0}', c.search, q, 1))",
  }),
  // An expression no btree index applies to: the planner would otherwise read the project's whole
  // range of the page index (its estimate of a prefix search's matches is poor) rather than the GIN index.
  searchColumn: (column) => `(${column} || '')`,
  scoreParam: (p) => `${p}::real`,
};

/** The page query, or undefined when the search has no word to match (its answer is empty). */
export function companyPageQuery(
  dialect: CompanyDialect,
  project: string,
  filter: CompanyFilter,
  after: CompanyPosition | undefined,
  limit: number,
  fields: ReadFields = ALL_FIELDS,
): PageQuery | undefined {
  const params: unknown[] = [];
  const p = (value: unknown): string => {
    params.push(value);
    return dialect.placeholder(params.length);
  };
  const words = filter.q === undefined ? undefined : queryWords(filter.q);
  if (words !== undefined && words.length === 0) return undefined;
  const key: string[] = [words === undefined ? filter.order : 'q', fieldsKey(fields)];
  const where: string[] = [];
  let from = 'companies c';
  let score: string | undefined;
  if (words !== undefined) {
    const s = dialect.search(p, words, project);
    from = s.from;
    where.push(s.where);
    score = s.score;
  }
  const col = (name: string): string => (words === undefined ? `c.${name}` : dialect.searchColumn(`c.${name}`));
  where.push(`${col('project')} = ${p(project)}`);
  if (filter.from !== undefined) {
    where.push(`${col('sort_key')} >= ${p(filter.from)}`);
    key.push('from');
  }
  if (filter.to !== undefined) {
    where.push(`${col('sort_key')} < ${p(filter.to)}`);
    key.push('to');
  }
  const inList = (column: string, values: readonly string[] | undefined, name: string): void => {
    if (values === undefined || values.length === 0) return;
    where.push(`${col(column)} IN (${values.map((v) => p(v)).join(', ')})`);
    key.push(`${name}${values.length}`);
  };
  inList('status', filter.statuses, 'st');
  inList('onboarding_level', filter.onboardingLevels, 'ol');
  inList('risk_score', filter.riskScores, 'rs');
  inList('country', filter.countries, 'co');
  const select = `c.customer_key, ${selectFields(fields, 'c', dialect.bodyAs)}`;
  if (score === undefined) {
    if (after !== undefined) {
      const cmp = filter.order === 'desc' ? '<' : '>';
      where.push(`(c.sort_key, c.customer_key) ${cmp} (${p(after.sortKey)}, ${p(after.key)})`);
      key.push('after');
    }
    const dir = filter.order === 'desc' ? 'DESC' : 'ASC';
    const sql =
      `SELECT c.sort_key AS position, ${select} FROM ${from} WHERE ${where.join(' AND ')} ` +
      `ORDER BY c.sort_key ${dir}, c.customer_key ${dir} LIMIT ${p(limit)}`;
    const checked = [filter.statuses, filter.onboardingLevels, filter.riskScores, filter.countries].some((v) => v !== undefined && v.length > 0);
    return { statementKey: key.join(':'), sql, params, scans: checked };
  }
  // Relevance is computed per match, so the matches are ranked in a subquery and paged outside it;
  // only the page's rows are then read whole (a broad search matches thousands).
  let outer = '';
  if (after !== undefined) {
    outer = `WHERE (m.position, m.customer_key) > (${dialect.scoreParam(p(Number(after.sortKey)))}, ${p(after.key)}) `;
    key.push('after');
  }
  const sql =
    `WITH m AS MATERIALIZED (SELECT ${score} AS position, c.customer_key FROM ${from} WHERE ${where.join(' AND ')}), ` +
    `page AS MATERIALIZED (SELECT m.position, m.customer_key FROM m ${outer}ORDER BY m.position, m.customer_key LIMIT ${p(limit)}) ` +
    // CROSS JOIN: SQLite then reads the page first and each row by key, never the project's range.
    `SELECT page.position, ${select} FROM page CROSS JOIN companies c WHERE c.project = ${p(project)} AND c.customer_key = page.customer_key ` +
    'ORDER BY page.position, page.customer_key';
  return { statementKey: key.join(':'), sql, params, scans: true };
}

/** A row of the page query as the drivers return it. */
export type CompanyPageRow = FieldRow & { customer_key: string; position: string | number };

/** The store's shape of a page row; a score keeps its exact spelling for the cursor. */
export function companyPageRow(r: CompanyPageRow): StoredCompany {
  return { key: r.customer_key, sortKey: String(r.position), ...recordOf(r) };
}
