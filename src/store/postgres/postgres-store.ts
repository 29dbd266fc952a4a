/** The server store: PostgreSQL through a pg pool, shared by any number of service replicas. */
import { createHash } from 'node:crypto';
import pLimit, { type LimitFunction } from 'p-limit';
import pg from 'pg';
import { API_KEY_COLUMNS, apiKeyFromRow, apiKeyValues, type ApiKeyColumns } from '../api-key-columns.js';
import { executionPageQuery, pageRow, type PageQuery, type PageRow } from '../execution-page-sql.js';
import { ALL_FIELDS, type ReadFields, type RecordBytes } from '../../wire/record-bytes.js';
import { alertCountQuery, alertCountsOfRows, alertPageQuery, alertPageRow, POSTGRES_ALERT_PAGE, type AlertCountRow, type AlertPageRow } from '../alert-page-sql.js';
import type {
  AlertCountFilter,
  AlertFilter,
  AlertPosition,
  ApiKeyRecord,
  ChangePosition,
  ChangeStamp,
  CompanyFilter,
  CompanyPosition,
  ExecutionFilter,
  ExecutionPosition,
  Store,
  StoredAlertSummary,
  StoredChange,
  StoredCompany,
  StoredExecution,
  StoreRow,
  Upsert,
  WaitOutcome,
  WriteOutcome,
} from '../store.js';
import { ChangeEpochs } from '../change-epochs.js';
import { changeOf } from '../change-items.js';
import { backfillChanges } from '../changes-backfill.js';
import { ChangeWaiters } from '../change-waiters.js';
import { ChangeListener } from './change-listener.js';
import { CHANGE_STAMPS, CHANGES_AFTER, changeStampsQuery, STAMP_SLOTS, CHANGES_PAGE, positionValues, postgresChangesBackfill, storedChange, writeChangesAndNotify, type ChangePageRow } from './postgres-changes.js';
import { BODY_AS_TEXT, fieldsKey, perFields, recordOf, selectFields, type FieldRow } from '../record-columns.js';
import { batchKeys, planBatch } from './batch-plan.js';
import { readPrevState, writePlan } from './batch-sql.js';
import { eraseCustomerRows, forgetPostgresFiles, postgresPendingFiles, pruneCandidates, pruneRows, PRUNE_CHUNK as PRUNE_STEP, readCustomerRows, readErasures, type PruneAfter } from './postgres-erasure.js';
import { documentKeysOf, type Erasure, type FileRef, type PruneKind, type Pruning } from '../erasure.js';
import type { ChangeEntry } from '../change-items.js';
import { migratePostgres } from './migrations.js';
import { backfillAlertListings, type BackfillConnection } from '../alert-listing-backfill.js';
import { exportPostgresRows, importPostgresRows } from './postgres-copy.js';
import type { AccessLogBatch, AccessLogEntry, AccessLogIndexListener, AccessLogQuery } from '../../access-log/access-log.js';
import { IndexFailureListeners, queryBatches, type BatchRow } from '../../access-log/batches.js';
import { CatchUpSchedule, countPostgresAccessLogBefore, indexPostgresAccessLog, insertAccessLogBatches, POSTGRES_BATCHES, prunePostgresAccessLog } from './access-log-sql.js';
import { API_KEYS_CHANNEL, ApiKeyListener } from './api-key-listener.js';
import { inTransaction } from './in-transaction.js';
import { guarded, storeErrorFrom } from './pg-errors.js';
import { ReadBatcher, type BatchedStatement } from '../read-batcher.js';
import { companyPageQuery, companyPageRow, POSTGRES_COMPANIES, type CompanyPageRow } from '../company-page-sql.js';
import { backfillPostgresCompanies } from './company-backfill-sql.js';
import { ReadSide } from './read-side.js';
import { endPool, KEEPALIVE_IDLE_MS, queryDeadline } from './deadlines.js';

// Record reads take an array of keys: the batcher sends a turn's lookups of a project together.
const COMPANY_READS = perFields(
  (fields): BatchedStatement => ({
    operation: 'getCompany',
    name: `ccr_companies_${fieldsKey(fields)}`,
    text: `SELECT customer_key AS k, ${selectFields(fields, undefined, BODY_AS_TEXT)} FROM customers WHERE project = $1 AND customer_key = ANY($2::text[]) AND is_company`,
  }),
);
const ALERT_READS = perFields(
  (fields): BatchedStatement => ({
    operation: 'getAlert',
    name: `ccr_alerts_${fieldsKey(fields)}`,
    text: `SELECT alert_key AS k, ${selectFields(fields, undefined, BODY_AS_TEXT)} FROM alerts WHERE project = $1 AND alert_key = ANY($2::text[])`,
  }),
);

/** Tuning of the pool; the URL's own parameters (sslmode, options, ...) still apply. */
export interface PostgresStoreOptions {
  /** Most connections this replica opens; default 10. */
  poolSize?: number;
  /** Server-side limit of one statement, in milliseconds; default 5000. */
  statementTimeoutMs?: number;
  /** Shown in pg_stat_activity; default "compliance-read". */
  applicationName?: string;
  /** How long to wait for a connection before the store counts as unavailable; default 3000. */
  connectTimeoutMs?: number;
  /** A streaming replica of `url` that serves reads (src/store/postgres/read-side.ts); never migrated or written. */
  readUrl?: string;
}

/** A stamp the primary gave in the replica's stead starts with this: it is never current again (see changeStamp). */
const PRIMARY_STAMP = 'primary ';

/**
 * Most statements each batcher (record reads, change stamps) has out at once: half the pool, so
 * the two together leave connections for pages and writes, and lookups that arrive meanwhile
 * gather into the next statement instead of queueing for a connection one turn at a time.
 */
function inFlightBound(pool: pg.Pool): number {
  return Math.max(1, Math.floor(pool.options.max / 2));
}

/**
 * Most scanning pages (searches, filters checked entry by entry, counts: see PageQuery.scans)
 * running at once: a quarter of the pool. Ranking a broad search's matches holds a connection as
 * long as it takes, and a burst of them must leave connections for reads by id and other pages.
 */
function scanBound(pool: pg.Pool): number {
  return Math.max(1, Math.floor(pool.options.max / 4));
}

/** A stamp check's key in the batcher, which gathers a turn's checks of every project into one statement. */
const stampKey = (project: string, since: string): string => `${project}\u0000${since}`;
const pairOfStampKey = (key: string): [project: string, since: string] => {
  const at = key.indexOf('\u0000');
  return [key.slice(0, at), key.slice(at + 1)];
};
const unmarked = (since: string): string => (since.startsWith(PRIMARY_STAMP) ? '' : since);

/** Namespace of the per-project write locks (the two-int advisory key space; migrations use the bigint one). */
const WRITE_LOCK_CLASS = 0x43435257;

/** Opens a pool on `url` and migrates the schema; rejects with StoreUnavailableError when the server cannot be reached. */
export async function openPostgresStore(url: string, options: PostgresStoreOptions = {}): Promise<PostgresStore> {
  const pool = poolOf(url, options);
  try {
    await guarded('open', () => migratePostgres(pool));
    await guarded('open', () => backfillAlertListings(postgresListingBackfill(pool)));
    await guarded('open', () => backfillPostgresCompanies(pool));
    await guarded('open', () => backfillChanges(postgresChangesBackfill(pool)));
  } catch (err) {
    await pool.end().catch(() => undefined);
    throw err;
  }
  // Not probed here: a replica that is down at start is met by the first read, which the primary answers.
  return new PostgresStore(pool, options.readUrl === undefined ? undefined : poolOf(options.readUrl, options));
}

function poolOf(url: string, options: PostgresStoreOptions): pg.Pool {
  const statementTimeoutMs = options.statementTimeoutMs ?? 5000;
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    statement_timeout: statementTimeoutMs,
    // A dead connection cannot carry the server's time-out back: the client gives up too (deadlines.ts).
    query_timeout: queryDeadline(statementTimeoutMs),
    keepAlive: true,
    keepAliveInitialDelayMillis: KEEPALIVE_IDLE_MS,
    application_name: options.applicationName ?? 'compliance-read',
    connectionTimeoutMillis: options.connectTimeoutMs ?? 3000,
    idleTimeoutMillis: 30_000,
  });
  // An idle connection dropped by the server (restart, failover) is emitted here; the pool has
  // already discarded it and the next query reconnects, so it must not crash the process.
  pool.on('error', () => undefined);
  return pool;
}

/** The backfill's statements on the pool, each chunk in a transaction of one connection. */
function postgresListingBackfill(pool: pg.Pool): BackfillConnection {
  return {
    placeholder: (n) => `$${n}`,
    bool: (b) => b,
    query: async (sql, params) => (await pool.query<Record<string, unknown>>(sql, params)).rows,
    writeChunk: (list) =>
      inTransaction(pool, async (client) => {
        for (const w of list) await client.query(w.sql, w.params);
      }),
  };
}

/** The PostgreSQL adapter of the Store interface. */
export class PostgresStore implements Store {
  readonly dialect = 'postgres' as const;
  private cachedSecret: Buffer | undefined;
  private closed = false;

  private readonly reads: ReadBatcher<RecordBytes>;
  /**
   * A turn's change stamp checks, of every project, go as one statement (as record reads do per project), on the
   * server the pages are read from: a page read on a replica behind the stamp's server would be
   * kept as current while missing what the stamp had seen. A stamp the primary gave while the
   * replica was down may meet a page read on the replica once it is back, so it is marked and
   * never counts as current.
   */
  private readonly stamps: ReadBatcher<ChangeStamp>;
  private readonly changes: ChangeListener;
  private readonly changeWaiters: ChangeWaiters;
  /** Reads by id, pages, counts, search and the feed: the replica when there is one. */
  private readonly readSide: ReadSide;
  /** Scanning pages wait here for one of their few connections (see scanBound). */
  private readonly scans: LimitFunction;

  constructor(
    readonly pool: pg.Pool,
    readPool?: pg.Pool,
  ) {
    this.readSide = new ReadSide(pool, readPool);
    this.scans = pLimit(scanBound(readPool ?? pool));
    this.stamps = new ReadBatcher<ChangeStamp>(async (_statement, _allProjects, keys) => {
      const pairs = keys.map(pairOfStampKey);
      // A marked stamp is asked as none: its answer is never current anyway.
      const asked = [...new Map(pairs.map(([project, since]) => [stampKey(project, unmarked(since)), [project, unmarked(since)] as const])).values()];
      const rows = new Map<string, ChangeStamp>();
      const last = STAMP_SLOTS.at(-1)!;
      await Promise.all(
        Array.from({ length: Math.ceil(asked.length / last) }, async (_, i) => {
          const { value: r, fromPrimary } = await this.readSide.run(CHANGE_STAMPS.operation, (p) =>
            p.query<ChangeStamp & { p: string; k: string }>(changeStampsQuery(asked.slice(i * last, (i + 1) * last))),
          );
          for (const row of r.rows) rows.set(stampKey(row.p, row.k), { stamp: fromPrimary ? PRIMARY_STAMP + row.stamp : row.stamp, changed: row.changed });
        }),
      );
      return new Map(
        pairs.map(([project, since], i) => {
          const row = rows.get(stampKey(project, unmarked(since)))!;
          return [keys[i]!, { stamp: row.stamp, changed: since.startsWith(PRIMARY_STAMP) || row.changed }];
        }),
      );
    }, inFlightBound(readPool ?? pool));
    // Notifications come from the primary; the xmin that says an entry is servable from where the feed is read.
    this.changes = new ChangeListener(pool.options, async () => {
      const r = await this.readSide.value('waitForChanges', (p) =>
        p.query<{ xmin: string }>({ name: 'ccr_changes_xmin', text: 'SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xmin' }),
      );
      return BigInt(r.rows[0]!.xmin);
    });
    this.changeWaiters = new ChangeWaiters(this.changes);
    this.changes.waiters = this.changeWaiters;
    this.reads = new ReadBatcher(async (statement: BatchedStatement, project: string, keys: string[]) => {
      const r = await this.readSide.value(statement.operation, (p) =>
        p.query<FieldRow & { k: string }>({ name: statement.name, text: statement.text, values: [project, keys] }),
      );
      // The key column only routes rows to their readers.
      return new Map(r.rows.map((row) => [row.k, recordOf(row)]));
    }, inFlightBound(readPool ?? pool));
  }

  async getCompany(project: string, key: string, fields: ReadFields = ALL_FIELDS): Promise<RecordBytes | undefined> {
    return this.reads.get(COMPANY_READS(fields), project, key);
  }

  async getAlert(project: string, key: string, fields: ReadFields = ALL_FIELDS): Promise<RecordBytes | undefined> {
    return this.reads.get(ALERT_READS(fields), project, key);
  }

  async customerKnown(project: string, customerKey: string): Promise<boolean> {
    const r = await this.readSide.value('customerKnown', (p) =>
      p.query({ name: 'ccr_customer_known', text: 'SELECT 1 FROM customers WHERE project = $1 AND customer_key = $2', values: [project, customerKey] }),
    );
    return r.rows.length > 0;
  }

  async listExecutions(
    project: string,
    customerKey: string,
    filter: ExecutionFilter,
    after: ExecutionPosition | undefined,
    limit: number,
    fields: ReadFields = ALL_FIELDS,
  ): Promise<StoredExecution[]> {
    const q = executionPageQuery(project, customerKey, filter, after, limit, (n) => `$${n}`, fields, BODY_AS_TEXT);
    const r = await this.page<PageRow>('listExecutions', `ccr_page_${q.statementKey}`, q);
    return r.rows.map(pageRow);
  }

  /** A page's statement on the read side; one that scans waits for one of its few connections (see scanBound). */
  private page<R extends pg.QueryResultRow>(operation: string, name: string, q: PageQuery): Promise<pg.QueryResult<R>> {
    const read = () => this.readSide.value(operation, (p) => p.query<R>({ name, text: q.sql, values: q.params }));
    return q.scans ? this.scans(read) : read();
  }

  async listAlerts(project: string, filter: AlertFilter, after: AlertPosition | undefined, limit: number, fields: ReadFields = ALL_FIELDS): Promise<StoredAlertSummary[]> {
    const q = alertPageQuery(project, filter, after, limit, POSTGRES_ALERT_PAGE, fields);
    const r = await this.page<AlertPageRow>('listAlerts', `ccr_alert_page_${q.statementKey}`, q);
    return r.rows.map(alertPageRow);
  }

  async countAlerts(project: string, filter: AlertCountFilter): Promise<Map<string, number>> {
    const q = alertCountQuery(project, filter, POSTGRES_ALERT_PAGE);
    const r = await this.page<AlertCountRow>('countAlerts', `ccr_alert_count_${q.statementKey}`, q);
    return alertCountsOfRows(r.rows);
  }

  async listCompanies(
    project: string,
    filter: CompanyFilter,
    after: CompanyPosition | undefined,
    limit: number,
    fields: ReadFields = ALL_FIELDS,
  ): Promise<StoredCompany[]> {
    const q = companyPageQuery(POSTGRES_COMPANIES, project, filter, after, limit, fields);
    if (q === undefined) return [];
    const r = await this.page<CompanyPageRow>('listCompanies', `ccr_companies_page_${q.statementKey}`, q);
    return r.rows.map(companyPageRow);
  }

  async writeBatch(items: readonly Upsert[]): Promise<WriteOutcome[]> {
    if (items.length === 0) return [];
    return guarded('writeBatch', () =>
      this.transaction(async (client) => {
        await lockProjects(client, items.map((i) => i.project));
        const plan = planBatch(items, await readPrevState(client, batchKeys(items)), await readErasures(client, items));
        await writePlan(client, plan);
        // Each stored record's feed entry, in the same transaction; the notify goes out at commit.
        const changedAt = new Date().toISOString();
        const entries = [...plan.customers, ...plan.alerts, ...plan.executions.map((e) => e.item)].map((u) => changeOf(u, changedAt));
        if (entries.length === 0) return { outcomes: plan.outcomes, written: undefined };
        const xid = await writeChangesAndNotify(client, entries);
        return { outcomes: plan.outcomes, written: { projects: [...new Set(entries.map((e) => e.project))], xid } };
      }),
    ).then(({ outcomes, written }) => {
      // This process's waiters need not wait for the notification to come back.
      if (written !== undefined) this.changes.written(written.projects, written.xid);
      return outcomes;
    });
  }

  async changeStamp(project: string, since?: string): Promise<ChangeStamp> {
    return (await this.stamps.get(CHANGE_STAMPS, '', stampKey(project, since ?? '')))!;
  }

  private readonly epochs = new ChangeEpochs((project, since) => this.changeStamp(project, since));

  changeEpoch(project: string): Promise<number> {
    return this.epochs.current(project);
  }

  async eraseCustomer(project: string, customerKey: string, options: { dryRun: boolean }): Promise<Erasure> {
    const { erasure, written } = await guarded('eraseCustomer', () =>
      this.transaction(async (client) => {
        // Imports of the project wait: nothing of the customer can be written between reading and deleting.
        await lockProjects(client, [project]);
        const rows = await readCustomerRows(client, project, customerKey);
        if (options.dryRun) return { erasure: { ...rows.counts, files: [] }, written: undefined };
        const { erasure, entries } = await eraseCustomerRows(client, project, customerKey, rows, new Date());
        return { erasure, written: await this.writeErased(client, entries) };
      }),
    );
    if (written !== undefined) this.changes.written(written.projects, written.xid);
    return erasure;
  }

  async pruneRecords(kind: PruneKind, beforeKey: string, options: { dryRun: boolean }): Promise<Pruning> {
    const total = { records: 0, documents: 0 };
    let after: PruneAfter | undefined;
    for (;;) {
      const step = await guarded('pruneRecords', () =>
        this.transaction(async (client) => {
          const found = await pruneCandidates(client, kind, beforeKey, after);
          const documents = found.bodies.reduce((n, b) => n + new Set(documentKeysOf('alert', b)).size, 0);
          const walked = { found: found.keys.length, last: found.keys.at(-1) };
          if (options.dryRun || found.keys.length === 0) return { ...walked, records: found.keys.length, documents, written: undefined };
          await lockProjects(client, found.keys.map((k) => k[0]!));
          const { records, entries } = await pruneRows(client, kind, beforeKey, found.keys, new Date());
          return { ...walked, records, documents, written: await this.writeErased(client, entries) };
        }),
      );
      if (step.written !== undefined) this.changes.written(step.written.projects, step.written.xid);
      total.records += step.records;
      total.documents += step.documents;
      // A full chunk may have more after it, even when some of its rows got a newer version meanwhile.
      if (step.last === undefined || step.found < PRUNE_STEP) break;
      after = step.last;
    }
    if (options.dryRun) return { ...total, files: [] };
    return { ...total, files: await guarded('pruneRecords', async () => postgresPendingFiles(this.pool)) };
  }

  async forgetFileDeletions(files: readonly FileRef[]): Promise<void> {
    if (files.length === 0) return;
    await guarded('forgetFileDeletions', () => forgetPostgresFiles(this.pool, files));
  }

  /** Writes the erase items of removed records, notifying the projects' listeners at commit. */
  private async writeErased(client: pg.PoolClient, entries: readonly ChangeEntry[]): Promise<{ projects: string[]; xid: bigint } | undefined> {
    if (entries.length === 0) return undefined;
    const xid = await writeChangesAndNotify(client, entries);
    return { projects: [...new Set(entries.map((e) => e.project))], xid };
  }

  async listChanges(project: string, after: ChangePosition | undefined, limit: number): Promise<StoredChange[]> {
    const r = await this.readSide.value('listChanges', (p) => p.query<ChangePageRow>({ ...CHANGES_PAGE, values: [project, ...positionValues(after), limit] }));
    return r.rows.map(storedChange);
  }

  async waitForChanges(project: string, after: ChangePosition | undefined, ms: number, signal?: AbortSignal): Promise<WaitOutcome> {
    return this.changeWaiters.wait(project, ms, signal, async () => {
      const r = await this.readSide.value('waitForChanges', (p) => p.query({ ...CHANGES_AFTER, values: [project, ...positionValues(after)] }));
      return r.rowCount !== 0;
    });
  }

  async insertApiKey(k: ApiKeyRecord): Promise<void> {
    await guarded('insertApiKey', () =>
      this.pool.query(`INSERT INTO api_keys (${API_KEY_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, apiKeyValues(k)),
    );
    await this.notifyKeys();
  }

  private listener: ApiKeyListener | undefined;

  apiKeysGeneration(): number | null {
    this.listener ??= new ApiKeyListener(this.pool.options);
    return this.listener.generation();
  }

  /** Tells every replica that keys changed (they drop what they cached). */
  private async notifyKeys(): Promise<void> {
    this.listener?.bump();
    await guarded('notifyKeys', () => this.pool.query(`SELECT pg_notify('${API_KEYS_CHANNEL}', '')`));
  }

  async findApiKeyByHash(hash: string): Promise<ApiKeyRecord | undefined> {
    const row = await this.one<ApiKeyColumns>('findApiKeyByHash', {
      name: 'ccr_api_key_by_hash',
      text: 'SELECT * FROM api_keys WHERE hash = $1',
      values: [hash],
    });
    return row === undefined ? undefined : apiKeyFromRow(row);
  }

  async listApiKeys(project?: string): Promise<ApiKeyRecord[]> {
    const r = await guarded('listApiKeys', () =>
      project === undefined
        ? this.pool.query<ApiKeyColumns>('SELECT * FROM api_keys ORDER BY created_at, id')
        : this.pool.query<ApiKeyColumns>('SELECT * FROM api_keys WHERE project = $1 ORDER BY created_at, id', [project]),
    );
    return r.rows.map(apiKeyFromRow);
  }

  async revokeApiKey(id: string, at: string): Promise<boolean> {
    const r = await guarded('revokeApiKey', () =>
      this.pool.query('UPDATE api_keys SET revoked_at = coalesce(revoked_at, $1) WHERE id = $2', [at, id]),
    );
    await this.notifyKeys();
    return (r.rowCount ?? 0) > 0;
  }

  async secret(): Promise<Buffer> {
    // Written once at the first migration and never changed, so one read per process suffices.
    if (this.cachedSecret === undefined) {
      const row = await this.one<{ value: Buffer }>('secret', {
        name: 'ccr_secret',
        text: "SELECT value FROM meta WHERE key = 'secret'",
        values: [],
      });
      if (row === undefined) throw new Error('store has no secret: it was never migrated');
      this.cachedSecret = row.value;
    }
    return this.cachedSecret;
  }

  async setSecret(secret: Buffer): Promise<void> {
    await guarded('setSecret', () =>
      this.pool.query(
        "INSERT INTO meta (key, value) VALUES ('secret', $1) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        [secret],
      ),
    );
    this.cachedSecret = Buffer.from(secret);
  }

  async schemaVersion(): Promise<number> {
    const row = await this.one<{ v: number | null }>('schemaVersion', {
      text: 'SELECT count(*)::int AS v FROM kysely_migration',
    });
    return row?.v ?? 0;
  }

  async hasRecords(): Promise<boolean> {
    const row = await this.one<{ any: boolean }>('hasRecords', {
      text: `SELECT EXISTS (SELECT 1 FROM customers) OR EXISTS (SELECT 1 FROM alerts)
               OR EXISTS (SELECT 1 FROM executions) AS any`,
    });
    return row?.any === true;
  }

  exportRows(chunkRows: number): AsyncGenerator<StoreRow[]> {
    return exportPostgresRows(this.pool, chunkRows);
  }

  async importRows(rows: readonly StoreRow[]): Promise<void> {
    if (rows.length === 0) return;
    await guarded('importRows', () => this.transaction((client) => importPostgresRows(client, rows)));
  }

  async appendAccessLog(batches: readonly AccessLogBatch[]): Promise<void> {
    if (batches.length === 0) return;
    await guarded('appendAccessLog', () => insertAccessLogBatches(this.pool, batches));
    if (this.logCatchUp.due(batches.length)) {
      // Off the request path already (the writer's drain); a failure leaves the batches flagged
      // (queries still find them) and goes to the listeners rather than to the writer.
      await this.indexAccessLog().catch((err: unknown) => this.indexFailures.report({ err: storeErrorFrom(err, 'indexAccessLog') }));
    }
  }

  /** Adds the batches not yet in the per-record table to it; returns how many batches it covered. */
  async indexAccessLog(): Promise<number> {
    this.logCatchUp.started();
    return guarded('indexAccessLog', () => indexPostgresAccessLog(this.pool, (f) => this.indexFailures.report(f)));
  }

  onAccessLogIndexFailure(listener: AccessLogIndexListener): void {
    this.indexFailures.add(listener);
  }

  private readonly logCatchUp = new CatchUpSchedule();
  private readonly indexFailures = new IndexFailureListeners();

  async pruneAccessLog(before: string, maxBatches: number): Promise<{ batches: number; entries: number }> {
    return guarded('pruneAccessLog', () => prunePostgresAccessLog(this.pool, before, maxBatches));
  }

  async countAccessLogBefore(before: string): Promise<{ batches: number; entries: number }> {
    return guarded('countAccessLogBefore', () => countPostgresAccessLogBefore(this.pool, before));
  }

  async queryAccessLog(q: AccessLogQuery): Promise<AccessLogEntry[]> {
    return queryBatches(q, POSTGRES_BATCHES, async (sql, params) => (await guarded('queryAccessLog', () => this.pool.query<BatchRow>(sql, params))).rows);
  }

  async ping(): Promise<void> {
    await guarded('ping', () => this.pool.query('SELECT 1'));
  }

  /** Connections of the primary's pool right now (open, idle, callers waiting for one), for metrics. */
  poolStats(): { total: number; idle: number; waiting: number } {
    return { total: this.pool.totalCount, idle: this.pool.idleCount, waiting: this.pool.waitingCount };
  }

  /** The same of the replica's pool, undefined without a replica. */
  replicaPoolStats(): { total: number; idle: number; waiting: number } | undefined {
    return this.readSide.replicaStats();
  }

  async close(): Promise<void> {
    // pg throws when a pool is ended twice; closing is idempotent for callers.
    if (this.closed) return;
    this.closed = true;
    this.changeWaiters.wakeAll();
    await this.changes.close();
    await this.listener?.close();
    await this.readSide.close();
    await endPool(this.pool);
  }

  private async one<T extends pg.QueryResultRow>(operation: string, query: pg.QueryConfig): Promise<T | undefined> {
    const r = await guarded(operation, () => this.pool.query<T>(query));
    return r.rows[0];
  }

  /** Runs `fn` in one transaction on one connection, rolling back on any failure. */
  private transaction<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    return inTransaction(this.pool, fn);
  }

}

/**
 * Takes the write locks of the projects, in one order: writers of a project take turns, as
 * SQLite's single writer does (between reading stored versions and writing, no one else writes).
 */
async function lockProjects(client: pg.PoolClient, projects: readonly string[]): Promise<void> {
  for (const project of [...new Set(projects)].sort()) {
    await client.query({
      name: 'ccr_write_lock',
      text: 'SELECT pg_advisory_xact_lock($1::integer, $2::integer)',
      values: [WRITE_LOCK_CLASS, projectLockKey(project)],
    });
  }
}

/** A project's advisory lock key: stable across processes and PostgreSQL versions. */
function projectLockKey(project: string): number {
  return createHash('sha256').update(project).digest().readInt32BE(0);
}
