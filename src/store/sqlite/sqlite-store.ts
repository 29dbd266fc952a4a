/** The embedded store: one SQLite file through better-sqlite3, WAL mode, memory-mapped reads. */
import { randomBytes } from 'node:crypto';
import { chmodSync, closeSync, fchmodSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { API_KEY_COLUMNS, apiKeyFromRow, apiKeyValues, type ApiKeyColumns } from '../api-key-columns.js';
import { executionPageQuery, pageRow, type PageQuery, type PageRow } from '../execution-page-sql.js';
import { ALL_FIELDS, type ReadFields, type RecordBytes } from '../../wire/record-bytes.js';
import { perFields, recordOf, selectFields, type FieldRow } from '../record-columns.js';
import { SERVING_READ_PRAGMAS, SqliteReadThread } from './read-thread.js';
import { SqliteWriteThread } from './write-thread.js';
import { exportChunks } from '../export-rows.js';
import { alertCountQuery, alertCountsOfRows, alertPageQuery, alertPageRow, SQLITE_ALERT_PAGE, type AlertCountRow, type AlertPageRow } from '../alert-page-sql.js';
import type {
  AlertCountFilter,
  AlertFilter,
  AlertPosition,
  StoredAlertSummary,
  ApiKeyRecord,
  CompanyFilter,
  CompanyPosition,
  StoredCompany,
  CustomerUpsert,
  AlertUpsert,
  ExecutionUpsert,
  ExecutionFilter,
  ExecutionPosition,
  ChangePosition,
  ChangeStamp,
  Store,
  StoredChange,
  StoredExecution,
  StoreRow,
  Upsert,
  WriteOutcome,
  WaitOutcome,
} from '../store.js';
import { ChangeEpochs } from '../change-epochs.js';
import { versionOutcome } from '../version-outcome.js';
import { migrateSqlite, sqliteSchemaVersion } from './migrations.js';
import { catchUpAccessLog, countAccessLogBefore, insertAccessLog, pruneAccessLog, recordBatchesSql } from './access-log-rows.js';
import { IndexFailureListeners, queryBatches, type BatchDialect, type BatchRow } from '../../access-log/batches.js';
import { guardedAnswer, guardedSync, sqliteStoreError } from './sqlite-errors.js';
import { AccessLogThread } from './access-log-thread.js';
import type { AccessLogBatch, AccessLogEntry, AccessLogIndexListener, AccessLogQuery } from '../../access-log/access-log.js';
import { ensureCustomer, importSqliteRows, replaceExecution, sqliteBool, upsertAlert, upsertCustomer, writeCompanyListing } from './sqlite-rows.js';
import { backfillAlertListings, type BackfillConnection } from '../alert-listing-backfill.js';
import { CompanySearchWrites } from './company-search-rows.js';
import { BACKFILL_CHUNK, COMPANY_BACKFILL_KEY, listingOfStored } from '../company-backfill.js';
import { companyPageQuery, companyPageRow, SQLITE_COMPANIES, type CompanyPageRow } from '../company-page-sql.js';
import { changeOf } from '../change-items.js';
import { backfillChanges } from '../changes-backfill.js';
import { ChangeWaiters } from '../change-waiters.js';
import { ReadBatcher } from '../read-batcher.js';
import { CHANGE_HEAD, CHANGES_AFTER_SQL, CHANGES_PAGE_SQL, recordChange, seqAfter, sqliteChangesBackfill, storedChange, type ChangePageRow } from './sqlite-changes.js';
import { eraseSqliteCustomer, pruneSqliteChunk, sqliteErasedKey, sqliteHasErasures, sqlitePendingFiles } from './sqlite-erasure.js';
import type { Erasure, FileRef, PruneKind, Pruning } from '../erasure.js';
import { erasedOutcome } from '../erasure.js';

type Statement = Database.Statement<unknown[], unknown>;

const SQLITE_BATCHES: BatchDialect = {
  placeholder: () => '?',
  unindexed: 'indexed = 0',
  recordBatches: recordBatchesSql,
};
const COMPANY_SQL = perFields((fields) => `SELECT ${selectFields(fields)} FROM customers WHERE project = ? AND customer_key = ? AND is_company = 1`);
const ALERT_SQL = perFields((fields) => `SELECT ${selectFields(fields)} FROM alerts WHERE project = ? AND alert_key = ?`);

/** Opens (creating and migrating as needed) the SQLite store at `file`. */
export async function openSqliteStore(
  file: string,
  options: { readonly?: boolean; bulkWrites?: boolean; readThread?: boolean } = {},
): Promise<SqliteStore> {
  const db = guardedSync('open', () => {
    if (file !== ':memory:') {
      // The file holds personal data and the URL signing secret: a directory and file this service
      // creates are its user's alone, whatever the umask (SQLite gives -wal and -shm the file's mode).
      if (mkdirSync(dirname(file), { recursive: true, mode: 0o700 }) !== undefined) chmodSync(dirname(file), 0o700);
      if (!options.readonly) createPrivateFile(file);
    }
    const db = new Database(file, { readonly: options.readonly ?? false });
    db.pragma('busy_timeout = 10000');
    if (!options.readonly) {
      // Records are kilobytes: 16 KiB pages keep most rows (body and gzip bytes) on one page
      // instead of an overflow chain. Only takes effect on a new, empty file.
      db.pragma('page_size = 16384');
      db.pragma('journal_mode = WAL');
      // A commit is on disk before it is answered (a push's 200, a message's ack): it survives a power loss too.
      db.pragma('synchronous = FULL');
      // Deleted content is overwritten with zeros, not only unlinked: an erased record leaves no bytes behind.
      db.pragma('secure_delete = ON');
    }
    return db;
  });
  if (!options.readonly) {
    try {
      await migrateSqlite(db);
      await backfillChanges(sqliteChangesBackfill(db));
      db.prepare('INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)').run('secret', randomBytes(32));
      await backfillAlertListings(sqliteListingBackfill(db));
      backfillCompanies(db);
    } catch (err) {
      db.close();
      throw sqliteStoreError(err, 'open');
    }
  }
  return guardedSync('open', () => {
    if (options.bulkWrites) {
      // An import reads little and writes much: mapped reads would only add the touched pages of
      // a growing file to the process's resident memory, and a large page cache would hold them.
      db.pragma('mmap_size = 0');
      db.pragma('cache_size = -16384');
      // A page rewritten by many batches is copied to the file once per checkpoint, and fsynced less often.
      db.pragma('wal_autocheckpoint = 16384');
    } else {
      for (const pragma of SERVING_READ_PRAGMAS) db.pragma(pragma);
      // The connection that commits past the threshold runs the checkpoint: on the serving one,
      // every 1,000 pages of access log and catch-up, reads waited for it (about 8 % of their
      // CPU). The access log's worker checkpoints after each catch-up instead; this is a backstop.
      db.pragma('wal_autocheckpoint = 16384');
    }
    return new SqliteStore(db, { readThread: options.readThread === true && file !== ':memory:' });
  });
}

/** The backfill's statements on the opening connection, each chunk in an immediate transaction. */
function sqliteListingBackfill(db: Database.Database): BackfillConnection {
  const statements = new Map<string, Statement>();
  const stmt = (sql: string): Statement => {
    let s = statements.get(sql);
    if (s === undefined) statements.set(sql, (s = db.prepare(sql)));
    return s;
  };
  return {
    placeholder: () => '?',
    bool: sqliteBool,
    query: async (sql, params) => {
      const s = stmt(sql);
      if (s.reader) return s.all(...params) as Record<string, unknown>[];
      s.run(...params);
      return [];
    },
    writeChunk: async (list) => db.transaction(() => list.forEach((w) => stmt(w.sql).run(...w.params))).immediate(),
  };
}

/** Lists the companies stored before the company list existed (see company-backfill.ts). */
function backfillCompanies(db: Database.Database): void {
  const pending = db.prepare('SELECT 1 FROM meta WHERE key = ?');
  if (pending.get(COMPANY_BACKFILL_KEY) === undefined) return;
  const statements = new Map<string, Statement>();
  const prepare = (sql: string): Statement => {
    let s = statements.get(sql);
    if (s === undefined) statements.set(sql, (s = db.prepare(sql)));
    return s;
  };
  const chunk = db.prepare(
    `SELECT project, customer_key, body, gz IS NOT NULL AS pieces FROM customers
     WHERE has_record = 1 AND is_company = 1 AND (project, customer_key) > (?, ?) ORDER BY project, customer_key LIMIT ?`,
  );
  let after: [string, string] = ['', ''];
  for (;;) {
    // Read and written in one transaction, so a record another process writes meanwhile is never listed from older bytes.
    const last = db.transaction(() => {
      const rows = chunk.all(...after, BACKFILL_CHUNK) as { project: string; customer_key: string; body: Buffer; pieces: number }[];
      const search = new CompanySearchWrites();
      for (const r of rows) {
        const listing = listingOfStored(r.body, r.pieces === 1);
        if (listing !== undefined) writeCompanyListing(prepare, r.project, r.customer_key, listing, search);
      }
      search.apply(prepare);
      if (rows.length < BACKFILL_CHUNK) db.prepare('DELETE FROM meta WHERE key = ?').run(COMPANY_BACKFILL_KEY);
      const end = rows[rows.length - 1];
      return rows.length < BACKFILL_CHUNK || end === undefined ? undefined : ([end.project, end.customer_key] as [string, string]);
    }).immediate();
    if (last === undefined) return;
    after = last;
  }
}

/** Creates `file` empty with mode 0600 unless it exists (an existing file keeps the mode it was given). */
function createPrivateFile(file: string): void {
  let fd: number;
  try {
    fd = openSync(file, 'wx', 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return;
    throw err;
  }
  try {
    fchmodSync(fd, 0o600);
  } finally {
    closeSync(fd);
  }
}


/** The SQLite adapter of the Store interface. */
export class SqliteStore implements Store {
  readonly dialect = 'sqlite' as const;
  private readonly statements = new Map<string, Statement>();
  private readonly writeTx: Database.Transaction<(items: readonly Upsert[], changedAt: string) => WriteOutcome[]>;
  private readonly importTx: Database.Transaction<(rows: readonly StoreRow[]) => void>;
  /** The statement cache as a plain function, for the row writers of sqlite-rows. */
  private readonly prepare = (sql: string): Statement => this.stmt(sql);

  /** Record reads go to a thread of their own (see read-thread.ts); started on the first read. */
  private readThread: SqliteReadThread | undefined;
  /** Pages that scan go to another (see pageRows): a broad search or a sparse filter holds it as long as it takes. */
  private scanThread: SqliteReadThread | undefined;
  /** The service's writes go to a thread of their own too (see write-thread.ts); started on the first write. */
  private writeThread: SqliteWriteThread | undefined;
  private readonly useReadThread: boolean;

  constructor(
    readonly db: Database.Database,
    options: { readThread?: boolean } = {},
  ) {
    this.useReadThread = options.readThread === true;
    this.writeTx = db.transaction((items: readonly Upsert[], changedAt: string) => {
      const search = new CompanySearchWrites();
      // One probe per batch: a store that never erased anything pays no tombstone lookups.
      const erasures = sqliteHasErasures(this.prepare);
      const outcomes = items.map((item) => {
        const outcome = (erasures ? this.erasedOutcome(item) : undefined) ?? this.writeOne(item, search);
        // The feed entry is written with the record, in its transaction.
        if (outcome === 'stored') recordChange(this.prepare, changeOf(item, changedAt));
        return outcome;
      });
      search.apply(this.prepare);
      return outcomes;
    });
    this.importTx = db.transaction((rows: readonly StoreRow[]) => importSqliteRows(this.prepare, rows));
  }

  private stmt(sql: string): Statement {
    let s = this.statements.get(sql);
    if (s === undefined) {
      s = this.db.prepare(sql);
      this.statements.set(sql, s);
    }
    return s;
  }

  /** The read thread while it works; undefined when reads run on this connection. */
  private reads(): SqliteReadThread | undefined {
    if (!this.useReadThread) return undefined;
    this.readThread ??= new SqliteReadThread(this.db.name);
    return this.readThread.usable ? this.readThread : undefined;
  }

  /** The write thread while it works; undefined when this connection writes (any store but the service's). */
  private writes(): SqliteWriteThread | undefined {
    if (!this.useReadThread) return undefined;
    this.writeThread ??= new SqliteWriteThread(this.db.name);
    return this.writeThread.usable ? this.writeThread : undefined;
  }

  /** The scan thread while it works; undefined when scanning pages run on this connection. */
  private scans(): SqliteReadThread | undefined {
    if (!this.useReadThread) return undefined;
    this.scanThread ??= new SqliteReadThread(this.db.name);
    return this.scanThread.usable ? this.scanThread : undefined;
  }

  /** One record by its key: on the read thread when there is one; failures translated as on this connection. */
  private async readRecord(operation: string, sql: string, project: string, key: string, fields: ReadFields): Promise<RecordBytes | undefined> {
    // A read of the etag alone (a kept answer's check) moves no bytes: the hop to the thread costs more than the lookup.
    const thread = Object.keys(fields).length === 0 ? undefined : this.reads();
    const row = thread === undefined ? guardedSync(operation, () => this.stmt(sql).get(project, key)) : await guardedAnswer(operation, thread.get(sql, [project, key]));
    return row === undefined ? undefined : recordOf(row as FieldRow);
  }

  async getCompany(project: string, key: string, fields: ReadFields = ALL_FIELDS): Promise<RecordBytes | undefined> {
    return this.readRecord('getCompany', COMPANY_SQL(fields), project, key, fields);
  }

  async getAlert(project: string, key: string, fields: ReadFields = ALL_FIELDS): Promise<RecordBytes | undefined> {
    return this.readRecord('getAlert', ALERT_SQL(fields), project, key, fields);
  }

  async customerKnown(project: string, customerKey: string): Promise<boolean> {
    return guardedSync('customerKnown', () => this.stmt('SELECT 1 FROM customers WHERE project = ? AND customer_key = ?').get(project, customerKey) !== undefined);
  }

  async listExecutions(
    project: string,
    customerKey: string,
    filter: ExecutionFilter,
    after: ExecutionPosition | undefined,
    limit: number,
    fields: ReadFields = ALL_FIELDS,
  ): Promise<StoredExecution[]> {
    const q = executionPageQuery(project, customerKey, filter, after, limit, () => '?', fields);
    return ((await this.pageRows('listExecutions', q)) as PageRow[]).map(pageRow);
  }

  async listAlerts(project: string, filter: AlertFilter, after: AlertPosition | undefined, limit: number, fields: ReadFields = ALL_FIELDS): Promise<StoredAlertSummary[]> {
    const q = alertPageQuery(project, filter, after, limit, SQLITE_ALERT_PAGE, fields);
    return ((await this.pageRows('listAlerts', q)) as AlertPageRow[]).map(alertPageRow);
  }

  async countAlerts(project: string, filter: AlertCountFilter): Promise<Map<string, number>> {
    const q = alertCountQuery(project, filter, SQLITE_ALERT_PAGE);
    return alertCountsOfRows((await this.pageRows('countAlerts', q)) as AlertCountRow[]);
  }

  async listCompanies(
    project: string,
    filter: CompanyFilter,
    after: CompanyPosition | undefined,
    limit: number,
    fields: ReadFields = ALL_FIELDS,
  ): Promise<StoredCompany[]> {
    const q = companyPageQuery(SQLITE_COMPANIES, project, filter, after, limit, fields);
    if (q === undefined) return [];
    return ((await this.pageRows('listCompanies', q)) as CompanyPageRow[]).map(companyPageRow);
  }

  /**
   * A page's rows. One that scans (a search, a filter checked entry by entry, a count) may walk a
   * whole project, long enough to stall every other answer on this connection: it goes to the scan
   * thread and this one keeps serving. Any other page is a bounded range and stays here: moving a
   * page's rows between threads cost more than reading them (570 -> 730 µs of CPU per executions page).
   */
  private async pageRows(operation: string, q: PageQuery): Promise<unknown[]> {
    const thread = q.scans ? this.scans() : undefined;
    return thread === undefined ? guardedSync(operation, () => this.stmt(q.sql).all(...q.params)) : guardedAnswer(operation, thread.all(q.sql, q.params));
  }

  async writeBatch(items: readonly Upsert[]): Promise<WriteOutcome[]> {
    const thread = this.writes();
    const outcomes = thread === undefined ? guardedSync('write', () => this.writeNow(items)) : await guardedAnswer('write', thread.run({ op: 'write', items }));
    // This process's waiters learn of its own writes at once; other processes' at their next check.
    if (this.changeWaiters.size > 0) {
      const projects = new Set(items.filter((_, i) => outcomes[i] === 'stored').map((item) => item.project));
      for (const project of projects) this.changeWaiters.wake(project);
    }
    return outcomes;
  }

  /** One batch's transaction on this connection, its errors as SQLite raised them (the write thread's worker calls it on its own). */
  writeNow(items: readonly Upsert[]): WriteOutcome[] {
    return this.writeTx.immediate(items, new Date().toISOString());
  }

  async changeStamp(project: string, since?: string): Promise<ChangeStamp> {
    return (await this.stamps.get(CHANGE_HEAD, project, since ?? ''))!;
  }

  private readonly epochs = new ChangeEpochs((project, since) => this.changeStamp(project, since));

  changeEpoch(project: string): Promise<number> {
    return this.epochs.current(project);
  }

  // A turn's change stamp checks of a project read the feed's head once, after the turn's
  // requests were all received (so none is answered from a head read before it arrived).
  private readonly stamps = new ReadBatcher<ChangeStamp>(async (statement, project, sinces) => {
    const head = guardedSync(statement.operation, () => this.stmt(statement.text).pluck().get(project) as number | undefined);
    const stamp = String(head ?? 0);
    return new Map(sinces.map((since) => [since, { stamp, changed: since !== '' && since !== stamp }]));
  });

  async listChanges(project: string, after: ChangePosition | undefined, limit: number): Promise<StoredChange[]> {
    return guardedSync('listChanges', () => (this.stmt(CHANGES_PAGE_SQL).all(project, seqAfter(after), limit) as ChangePageRow[]).map(storedChange));
  }

  async waitForChanges(project: string, after: ChangePosition | undefined, ms: number, signal?: AbortSignal): Promise<WaitOutcome> {
    return this.changeWaiters.wait(project, ms, signal, () =>
      guardedSync('waitForChanges', () => this.stmt(CHANGES_AFTER_SQL).get(project, seqAfter(after)) !== undefined),
    );
  }

  // Other processes' writes: data_version moves when another connection commits to the file; then
  // the projects with entries past the last seen seq are woken. Checked every 100 ms while anyone waits.
  private feedVersion: Database.Statement | undefined;
  private feedVersionSeen: unknown;
  private feedSeqSeen = 0;
  private readonly changeWaiters = new ChangeWaiters({
    intervalMs: 100,
    start: () => {
      this.feedVersion ??= this.db.prepare('PRAGMA data_version').pluck();
      this.feedVersionSeen = this.feedVersion.get();
      this.feedSeqSeen = (this.stmt('SELECT coalesce(max(seq), 0) AS s FROM changes').get() as { s: number }).s;
    },
    run: () => {
      const version = this.feedVersion!.get();
      if (version === this.feedVersionSeen) return;
      this.feedVersionSeen = version;
      const rows = this.stmt('SELECT project, max(seq) AS s FROM changes WHERE seq > ? GROUP BY project').all(this.feedSeqSeen) as { project: string; s: number }[];
      for (const r of rows) {
        this.feedSeqSeen = Math.max(this.feedSeqSeen, r.s);
        this.changeWaiters.wake(r.project);
      }
    },
  });

  /** 'stale' for a record an erasure covers and it is not newer than (see erasedOutcome). */
  private erasedOutcome(item: Upsert): 'stale' | undefined {
    const erased =
      item.kind === 'customer'
        ? sqliteErasedKey(this.prepare, item.project, 'customer', item.key)
        : item.kind === 'alert'
          ? sqliteErasedKey(this.prepare, item.project, 'alert', item.key, item.listing.customerKey)
          : sqliteErasedKey(this.prepare, item.project, 'customer', item.customerKey);
    return erasedOutcome(erased, item.versionKey);
  }

  async eraseCustomer(project: string, customerKey: string, options: { dryRun: boolean }): Promise<Erasure> {
    const thread = this.writes();
    const { dryRun } = options;
    const erasure =
      thread === undefined
        ? guardedSync('eraseCustomer', () => this.eraseNow(project, customerKey, dryRun))
        : await guardedAnswer('eraseCustomer', thread.run({ op: 'erase', project, customerKey, dryRun }));
    if (!dryRun) this.changeWaiters.wake(project);
    return erasure;
  }

  /** An erasure's transaction (and the checkpoint after it) on this connection, its errors as SQLite raised them. */
  eraseNow(project: string, customerKey: string, dryRun: boolean): Erasure {
    if (dryRun) return this.db.transaction(() => eraseSqliteCustomer(this.prepare, project, customerKey, true, new Date()))();
    const erasure = this.db.transaction(() => eraseSqliteCustomer(this.prepare, project, customerKey, false, new Date())).immediate();
    this.afterRemoval();
    return erasure;
  }

  async pruneRecords(kind: PruneKind, beforeKey: string, options: { dryRun: boolean }): Promise<Pruning> {
    const total = { records: 0, documents: 0 };
    let after: number | undefined = 0;
    while (after !== undefined) {
      const from: number = after;
      const chunk = this.db.transaction(() => pruneSqliteChunk(this.prepare, kind, beforeKey, from, options.dryRun, new Date()));
      // A dry run only reads: it takes no write lock.
      const step = guardedSync('pruneRecords', () => (options.dryRun ? chunk() : chunk.immediate()));
      total.records += step.records;
      total.documents += step.documents;
      after = step.last;
    }
    if (options.dryRun) return { ...total, files: [] };
    if (total.records > 0) {
      guardedSync('checkpoint', () => this.afterRemoval());
      this.changeWaiters.wakeAll();
    }
    return { ...total, files: guardedSync('pruneRecords', () => sqlitePendingFiles(this.prepare)) };
  }

  async forgetFileDeletions(files: readonly FileRef[]): Promise<void> {
    if (files.length === 0) return;
    const thread = this.writes();
    if (thread === undefined) guardedSync('forgetFileDeletions', () => this.forgetNow(files));
    else await guardedAnswer('forgetFileDeletions', thread.run({ op: 'forget', files }));
  }

  /** Forgets deleted files on this connection, its errors as SQLite raised them. */
  forgetNow(files: readonly FileRef[]): undefined {
    const forget = this.stmt('DELETE FROM file_deletions WHERE project = ? AND object_key = ?');
    this.db.transaction(() => files.forEach((f) => forget.run(f.project, f.objectKey))).immediate();
    return undefined;
  }

  /**
   * After records were removed: the WAL still holds the pages as they were before, until a
   * checkpoint copies the new (zeroed) pages into the file and the log is truncated. A reader
   * holding an old snapshot keeps the frames it needs; the next erase or prune checkpoints again.
   */
  private afterRemoval(): void {
    this.db.pragma('wal_checkpoint(TRUNCATE)');
  }

  private writeOne(item: Upsert, search: CompanySearchWrites): WriteOutcome {
    switch (item.kind) {
      case 'customer':
        return this.writeCustomer(item, search);
      case 'alert':
        return this.writeAlert(item);
      case 'execution':
        return this.writeExecution(item);
    }
  }

  private writeCustomer(c: CustomerUpsert, search: CompanySearchWrites): WriteOutcome {
    const prev = this.stmt(
      'SELECT etag, version_key AS versionKey FROM customers WHERE project = ? AND customer_key = ? AND has_record = 1',
    ).get(c.project, c.key) as { etag: string; versionKey: string | null } | undefined;
    const outcome = versionOutcome(prev, c);
    if (outcome !== 'stored') return outcome;
    upsertCustomer(this.prepare, c, search);
    return 'stored';
  }

  private writeAlert(a: AlertUpsert): WriteOutcome {
    const prev = this.stmt(
      'SELECT etag, version_key AS versionKey FROM alerts WHERE project = ? AND alert_key = ?',
    ).get(a.project, a.key) as { etag: string; versionKey: string | null } | undefined;
    const outcome = versionOutcome(prev, a);
    if (outcome !== 'stored') return outcome;
    upsertAlert(this.prepare, a);
    return 'stored';
  }

  private writeExecution(e: ExecutionUpsert): WriteOutcome {
    ensureCustomer(this.prepare, e.project, e.customerKey);
    const prev = this.stmt(
      `SELECT etag, sort_key AS versionKey, scenario_ids AS scenarioIds FROM executions
       WHERE project = ? AND customer_key = ? AND execution_id = ?`,
    ).get(e.project, e.customerKey, e.executionId) as
      | { etag: string; versionKey: string; scenarioIds: string }
      | undefined;
    const outcome = versionOutcome(prev, e);
    if (outcome !== 'stored') return outcome;
    const previous = prev && { sortKey: prev.versionKey, scenarioIds: JSON.parse(prev.scenarioIds) as string[] };
    replaceExecution(this.prepare, e, previous);
    return 'stored';
  }

  async insertApiKey(k: ApiKeyRecord): Promise<void> {
    guardedSync('insertApiKey', () => this.stmt(`INSERT INTO api_keys (${API_KEY_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`).run(...apiKeyValues(k)));
    this.keyWrites++;
  }

  // data_version changes when another connection (a CLI revoking a key) commits to the file;
  // this connection's own key writes are counted here. Reading data_version opens a read
  // transaction, so it is read at most every 50 ms: a revoke from another process takes effect
  // within that, a revoke through this store at once.
  private keyWrites = 0;
  private dataVersion: Database.Statement | undefined;
  private versionSeen = '';
  private versionReadAt = -Infinity;

  apiKeysGeneration(): string {
    const now = performance.now();
    if (now - this.versionReadAt >= 50) {
      this.versionSeen = guardedSync('apiKeysGeneration', () => {
        this.dataVersion ??= this.db.prepare('PRAGMA data_version').pluck();
        return String(this.dataVersion.get());
      });
      this.versionReadAt = now;
    }
    return `${this.versionSeen}:${this.keyWrites}`;
  }

  async findApiKeyByHash(hash: string): Promise<ApiKeyRecord | undefined> {
    const row = guardedSync('findApiKeyByHash', () => this.stmt('SELECT * FROM api_keys WHERE hash = ?').get(hash)) as ApiKeyColumns | undefined;
    return row === undefined ? undefined : apiKeyFromRow(row);
  }

  async listApiKeys(project?: string): Promise<ApiKeyRecord[]> {
    const rows = guardedSync('listApiKeys', () =>
      project === undefined
        ? this.stmt('SELECT * FROM api_keys ORDER BY created_at, id').all()
        : this.stmt('SELECT * FROM api_keys WHERE project = ? ORDER BY created_at, id').all(project),
    ) as ApiKeyColumns[];
    return rows.map(apiKeyFromRow);
  }

  async revokeApiKey(id: string, at: string): Promise<boolean> {
    const r = guardedSync('revokeApiKey', () => this.stmt('UPDATE api_keys SET revoked_at = coalesce(revoked_at, ?) WHERE id = ?').run(at, id));
    this.keyWrites++;
    return r.changes > 0;
  }

  async secret(): Promise<Buffer> {
    const row = guardedSync('secret', () => this.stmt("SELECT value FROM meta WHERE key = 'secret'").get()) as { value: Buffer } | undefined;
    if (row === undefined) throw new Error('store has no secret: it was never migrated');
    return row.value;
  }

  async setSecret(secret: Buffer): Promise<void> {
    guardedSync('setSecret', () =>
      this.stmt('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run('secret', secret),
    );
  }

  async schemaVersion(): Promise<number> {
    return guardedSync('schemaVersion', () => sqliteSchemaVersion(this.db));
  }

  async hasRecords(): Promise<boolean> {
    const row = guardedSync('hasRecords', () =>
      this.stmt(
        `SELECT EXISTS (SELECT 1 FROM customers) OR EXISTS (SELECT 1 FROM alerts)
         OR EXISTS (SELECT 1 FROM executions) AS any`,
      ).get(),
    ) as { any: number };
    return row.any === 1;
  }

  async *exportRows(chunkRows: number): AsyncGenerator<StoreRow[]> {
    // A connection of its own holds the snapshot, so this store can still write meanwhile
    // (an in-memory database has no second connection and reads without one).
    const reader = this.db.memory ? this.db : new Database(this.db.name, { readonly: true, fileMustExist: true });
    const statements = new Map<string, Statement>();
    try {
      if (reader !== this.db) reader.exec('BEGIN');
      yield* exportChunks(
        async (sql, params) => {
          let s = statements.get(sql);
          if (s === undefined) statements.set(sql, (s = reader.prepare(sql)));
          return s.all(...params) as Record<string, unknown>[];
        },
        'sqlite',
        chunkRows,
      );
    } finally {
      if (reader !== this.db) reader.close();
    }
  }

  async importRows(rows: readonly StoreRow[]): Promise<void> {
    guardedSync('importRows', () => this.importTx.immediate(rows));
  }

  async appendAccessLog(batches: readonly AccessLogBatch[]): Promise<void> {
    if (batches.length === 0) return;
    const thread = this.logThreadOf();
    if (thread === undefined) guardedSync('access log write', () => insertAccessLog(this.db, batches));
    else await thread.write(batches);
  }

  /**
   * The access log's own thread and connection, where its writes and pruning go (none for a store
   * in memory): a commit on this connection stalled every answer waiting behind it, and, never
   * waiting for a lock, failed whenever the catch-up held one. A thread that stopped is replaced.
   */
  private logThreadOf(): AccessLogThread | undefined {
    if (this.db.memory) return undefined;
    if (this.logThread?.stopped !== undefined) this.logThread = undefined;
    this.logThread ??= new AccessLogThread(this.db.name, (f) => this.indexFailures.report(f));
    return this.logThread;
  }

  private logThread: AccessLogThread | undefined;
  private readonly indexFailures = new IndexFailureListeners();

  async indexAccessLog(): Promise<number> {
    return guardedSync('access log catch-up', () => catchUpAccessLog(this.db, (f) => this.indexFailures.report(f)));
  }

  onAccessLogIndexFailure(listener: AccessLogIndexListener): void {
    this.indexFailures.add(listener);
  }

  async pruneAccessLog(before: string, maxBatches: number): Promise<{ batches: number; entries: number }> {
    const thread = this.logThreadOf();
    return thread === undefined ? guardedSync('access log prune', () => pruneAccessLog(this.db, before, maxBatches)) : thread.prune(before, maxBatches);
  }

  async countAccessLogBefore(before: string): Promise<{ batches: number; entries: number }> {
    return guardedSync('access log count', () => countAccessLogBefore(this.db, before));
  }

  async queryAccessLog(q: AccessLogQuery): Promise<AccessLogEntry[]> {
    return queryBatches(q, SQLITE_BATCHES, async (sql, params) => guardedSync('queryAccessLog', () => this.stmt(sql).all(...params) as BatchRow[]));
  }

  async ping(): Promise<void> {
    guardedSync('ping', () => this.stmt('SELECT 1').get());
  }

  async close(): Promise<void> {
    this.changeWaiters.wakeAll();
    await this.readThread?.close();
    await this.scanThread?.close();
    await this.writeThread?.close();
    await this.logThread?.close();
    this.db.close();
  }
}
