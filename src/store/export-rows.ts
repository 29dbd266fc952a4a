/**
 * The export half of `copy`, shared by the SQL dialects: one keyset scan per table along its
 * primary key, so each chunk is one index range read and memory stays flat however large the
 * store. The derived scenario index is not exported; importRows rebuilds it from scenario_ids, and
 * each store's access log catch-up rebuilds the per-record table of the batches copied.
 */
import { apiKeyFromRow, type ApiKeyColumns } from './api-key-columns.js';
import { ALERT_LISTING_COLUMNS, alertListingOfColumns } from './alert-listing-columns.js';
import { listingOfStoredAlert } from './alert-listing-backfill.js';
import { BYTE_COLUMNS, recordOfColumns } from './record-columns.js';
import type { SqlDialect } from './sql-builder.js';
import type { StoreRow } from './store.js';
import type { TombstoneKind } from './erasure.js';

type Row = Record<string, unknown>;

/** A table as exported: its primary key columns, the columns read, and the row they make. */
interface ExportTable {
  name: string;
  key: readonly string[];
  /** The columns read; none: every column. */
  columns?: readonly string[];
  toRow(r: Row): StoreRow;
}

const EXPORT_TABLES: readonly ExportTable[] = [
  {
    name: 'customers',
    key: ['project', 'customer_key'],
    columns: ['project', 'customer_key', 'has_record', 'is_company', 'version_key', ...BYTE_COLUMNS],
    // SQLite answers 0/1 and PostgreSQL booleans; truthiness reads both.
    toRow: (r) =>
      r.has_record
        ? {
            kind: 'customer',
            project: r.project as string,
            key: r.customer_key as string,
            versionKey: r.version_key as string | null,
            isCompany: Boolean(r.is_company),
            ...recordOfColumns(r),
          }
        : { kind: 'bareCustomer', project: r.project as string, customerKey: r.customer_key as string },
  },
  {
    // After customers, so a copy writes each company list row once its customer is there.
    name: 'companies',
    key: ['project', 'customer_key'],
    columns: ['project', 'customer_key', 'sort_key', 'status', 'onboarding_level', 'risk_score', 'country', 'search_names', 'search_ids', ...BYTE_COLUMNS],
    toRow: (r) => ({
      kind: 'companyListing',
      project: r.project as string,
      key: r.customer_key as string,
      listing: {
        summary: recordOfColumns(r),
        status: r.status as string | null,
        onboardingLevel: r.onboarding_level as string | null,
        riskScore: r.risk_score as string | null,
        country: r.country as string | null,
        sortKey: r.sort_key as string,
        searchNames: r.search_names as string,
        searchIds: r.search_ids as string,
      },
    }),
  },
  {
    name: 'alerts',
    key: ['project', 'alert_key'],
    columns: ['project', 'alert_key', 'version_key', ...BYTE_COLUMNS, ...ALERT_LISTING_COLUMNS],
    toRow: (r) => ({
      kind: 'alert',
      project: r.project as string,
      key: r.alert_key as string,
      versionKey: r.version_key as string | null,
      ...recordOfColumns(r),
      // A store opened read-only before its backfill ran: the listing is computed on the way.
      listing: r.summary_etag === null ? listingOfStoredAlert(r.body as Buffer, r.gz) : alertListingOfColumns(r),
    }),
  },
  {
    name: 'executions',
    key: ['project', 'customer_key', 'execution_id'],
    columns: ['project', 'customer_key', 'execution_id', 'sort_key', 'status', 'object_types', 'scenario_ids', ...BYTE_COLUMNS],
    toRow: (r) => ({
      kind: 'execution',
      project: r.project as string,
      key: r.execution_id as string,
      versionKey: r.sort_key as string,
      customerKey: r.customer_key as string,
      executionId: r.execution_id as string,
      status: r.status as string | null,
      scenarioIds: JSON.parse(r.scenario_ids as string) as string[],
      objectTypes: Number(r.object_types),
      ...recordOfColumns(r),
    }),
  },
  {
    name: 'api_keys',
    key: ['id'],
    toRow: (r) => ({ kind: 'apiKey', record: apiKeyFromRow(r as unknown as ApiKeyColumns) }),
  },
  {
    // Along the (project, record) key both dialects have: each record's one entry, in record order
    // (the target gives them new positions; every entry keeps its changedAt).
    name: 'changes',
    key: ['project', 'record'],
    columns: ['project', 'record', 'record_key', 'etag', 'item'],
    toRow: (r) => ({
      kind: 'change',
      project: r.project as string,
      record: r.record as string,
      recordKey: r.record_key as string,
      etag: r.etag as string | null,
      item: Buffer.isBuffer(r.item) ? r.item : Buffer.from(r.item as string, 'utf8'),
    }),
  },
  {
    // Tombstones and pending file deletions: an erasure made on the source still holds on the target.
    name: 'erasures',
    key: ['project', 'kind', 'record_key'],
    toRow: (r) => ({ kind: 'erasure', project: r.project as string, tombstone: r.kind as TombstoneKind, recordKey: r.record_key as string, erasedKey: r.erased_key as string }),
  },
  {
    name: 'file_deletions',
    key: ['project', 'object_key'],
    toRow: (r) => ({ kind: 'fileDeletion', project: r.project as string, objectKey: r.object_key as string }),
  },
  {
    // Along access_log_batches_by_time, which both dialects have; the id only breaks ties.
    name: 'access_log_batches',
    key: ['project', 'first_at', 'id'],
    columns: ['project', 'first_at', 'id', 'last_at', 'entries', 'records'],
    toRow: (r) => ({
      kind: 'accessLogBatch',
      batch: { project: r.project as string, firstAt: r.first_at as string, lastAt: r.last_at as string, entries: r.entries as string, records: r.records as string },
    }),
  },
];

type SqlBuilder = ReturnType<typeof import('./sql-builder.js').sqlBuilder>;

/** Runs one page query of the source dialect and answers its rows. */
export type PageReader = (sql: string, params: readonly unknown[]) => Promise<Row[]>;

/** One keyset page of `limit` rows: the first when `after` is undefined, else strictly after that key. */
function pageQuery(builder: SqlBuilder, t: ExportTable, after: readonly unknown[] | undefined, limit: number): { sql: string; parameters: readonly unknown[] } {
  const from = builder.selectFrom(t.name);
  let q = t.columns === undefined ? from.selectAll() : from.select(t.columns);
  // A row-value comparison over the whole key is one range condition on the primary key index.
  if (after !== undefined) q = q.where((eb) => eb(eb.refTuple(...(t.key as [string, string])), '>', eb.tuple(...(after as [unknown, unknown]))));
  for (const k of t.key) q = q.orderBy(k);
  return q.limit(limit).compile();
}

/**
 * Bytes a chunk should hold at most: a record may weigh a megabyte, and a chunk is held in memory
 * and written in one transaction.
 */
const CHUNK_BYTES = 32 * 1024 * 1024;
/** Rows of a table's first chunk, read before its row size is known. */
const FIRST_CHUNK_ROWS = 64;

/** Approximate bytes of a row as read: its binary and text values. */
function rowBytes(r: Row): number {
  let n = 0;
  for (const v of Object.values(r)) if (Buffer.isBuffer(v) || typeof v === 'string') n += v.length;
  return n;
}

/**
 * Yields every exportable row of a store, table by table, in chunks of at most `chunkRows` rows;
 * fewer when rows are large, so a chunk stays near `chunkBytes`.
 */
export async function* exportChunks(
  read: PageReader,
  dialect: SqlDialect,
  chunkRows: number,
  chunkBytes = CHUNK_BYTES,
): AsyncGenerator<StoreRow[]> {
  if (!Number.isInteger(chunkRows) || chunkRows < 1) throw new RangeError('chunkRows must be a positive whole number');
  // Loaded here, not with the store: a start-up need not load kysely's module (docs/architecture.md).
  const builder = (await import('./sql-builder.js')).sqlBuilder(dialect);
  for (const t of EXPORT_TABLES) {
    let after: unknown[] | undefined;
    let limit = Math.min(chunkRows, FIRST_CHUNK_ROWS);
    for (;;) {
      const page = pageQuery(builder, t, after, limit);
      const rows = await read(page.sql, page.parameters);
      if (rows.length === 0) break;
      yield rows.map((r) => t.toRow(r));
      if (rows.length < limit) break;
      const last = rows[rows.length - 1]!;
      after = t.key.map((k) => last[k]);
      const perRow = Math.max(1, rows.reduce((n, r) => n + rowBytes(r), 0) / rows.length);
      limit = Math.max(1, Math.min(chunkRows, Math.floor(chunkBytes / perRow)));
    }
  }
}
