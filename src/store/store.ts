/** The one storage interface: the HTTP layer and the importer talk to this, never to SQL. */
import type { ReadFields, RecordBytes } from '../wire/record-bytes.js';
import type { CompanyListing } from './company-listing.js';
import type { AccessLogBatch, AccessLogIndexListener, AccessLogPruning, AccessLogStore } from '../access-log/access-log.js';
import type { Erasure, FileRef, PruneKind, Pruning, TombstoneKind } from './erasure.js';

/** One execution row of a page, with its keyset position; its bytes as the read's fields asked. */
export interface StoredExecution extends RecordBytes {
  executionId: string;
  sortKey: string;
}

export type SortOrder = 'asc' | 'desc';

/** Filters of the scenario executions operation, already validated and normalized. */
export interface ExecutionFilter {
  statuses?: readonly string[];
  scenarioId?: string;
  objectType?: string;
  /** Inclusive lower bound, as an instant key (src/contract instantKey). */
  from?: string;
  /** Exclusive upper bound, as an instant key. */
  to?: string;
  order: SortOrder;
}

/** Where a page starts: strictly after this position in the chosen order. */
export interface ExecutionPosition {
  sortKey: string;
  executionId: string;
}

/** Outcome of writing one record. */
export type WriteOutcome = 'stored' | 'unchanged' | 'stale';

/** A record as written: its bytes (always with its JSON), opaque to the store. */
interface UpsertBase extends RecordBytes {
  body: Buffer;
  project: string;
  /** Lookup key of the record id (src/contract recordKey). */
  key: string;
  /** Instant key of the record's version timestamp, or null when it has none. */
  versionKey: string | null;
  /**
   * The record's id as written and its customer's id, for its change feed entry (change-items.ts);
   * the importer always gives them, rows `copy` moves need not (their feed is copied as it is).
   */
  id?: string;
  customerId?: string | null;
}

export interface CustomerUpsert extends UpsertBase {
  kind: 'customer';
  isCompany: boolean;
  /**
   * The customer's row of the company list: shaped at import for a company, null for any other
   * customer (a row it had goes); undefined leaves the stored row as it is (copy writes it apart).
   */
  company?: CompanyListing | null;
}

/** Filters of the company list, already validated and normalized. */
export interface CompanyFilter {
  statuses?: readonly string[];
  onboardingLevels?: readonly string[];
  riskScores?: readonly string[];
  countries?: readonly string[];
  /** Inclusive lower bound of updatedAt, as an instant key. */
  from?: string;
  /** Exclusive upper bound of updatedAt, as an instant key. */
  to?: string;
  /** Search text as given: with it, rows come by relevance, then key; without, by updatedAt in `order`. */
  q?: string;
  order: SortOrder;
}

/** Where a company page starts: after this sort key (the updatedAt key, or the relevance score) and key. */
export interface CompanyPosition {
  sortKey: string;
  key: string;
}

/** One company summary of a page, with its keyset position; its bytes as the read's fields asked. */
export interface StoredCompany extends RecordBytes, CompanyPosition {}

/** A company's list row as copied between stores (it follows its customer row). */
export interface CompanyListingRow {
  kind: 'companyListing';
  project: string;
  key: string;
  listing: CompanyListing;
}

/** What the alert list filters and sorts an alert by, and the summary it answers: shaped at import. */
export interface AlertListing {
  status: string;
  severity: string;
  category: string;
  type: string;
  /** Lookup key of the alert's customerId (src/contract recordKey). */
  customerKey: string;
  assignedTo: string | null;
  seen: boolean;
  /** Instant keys of createdAt and updatedAt (src/contract instantKey). */
  createdKey: string;
  updatedKey: string;
  /** The bytes of the alert's summary (src/contract alertSummaryOf), laid out like a record's. */
  summary: RecordBytes & { body: Buffer };
}

export interface AlertUpsert extends UpsertBase {
  kind: 'alert';
  listing: AlertListing;
}

/** The alert list's sort field. */
export type AlertSort = 'updatedAt' | 'createdAt';

/** Filters of the alert list, already validated and normalized (sets sorted, instants as keys). */
export interface AlertFilter {
  statuses?: readonly string[];
  severities?: readonly string[];
  categories?: readonly string[];
  types?: readonly string[];
  customerKey?: string;
  /** null: only alerts assigned to no one. */
  assignedTo?: string | null;
  seen?: boolean;
  /** Inclusive lower and exclusive upper bounds, as instant keys. */
  createdFrom?: string;
  createdTo?: string;
  updatedFrom?: string;
  updatedTo?: string;
  sort: AlertSort;
  order: SortOrder;
}

/** The filters the alert counts take: the list's, without its sort and order (status is what they count by). */
export type AlertCountFilter = Omit<AlertFilter, 'sort' | 'order'>;

/** Where an alert page starts: strictly after this position in the chosen sort and order. */
export interface AlertPosition {
  sortKey: string;
  alertKey: string;
}

/** One alert of a list page: its summary's bytes as the read's fields asked, with its keyset position. */
export interface StoredAlertSummary extends RecordBytes {
  alertKey: string;
  sortKey: string;
}

export interface ExecutionUpsert extends UpsertBase {
  kind: 'execution';
  customerKey: string;
  executionId: string;
  status: string | null;
  scenarioIds: readonly string[];
  /** Bit set of the RuleObjectType values of the execution's rules. */
  objectTypes: number;
}

export type Upsert = CustomerUpsert | AlertUpsert | ExecutionUpsert;

/** An API key as stored: the secret itself is never kept, only its hash. */
export interface ApiKeyRecord {
  id: string;
  project: string;
  name: string | null;
  scopes: string[];
  hash: string;
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
}

/** A customer known only because executions name it: a row without a record of its own. */
export interface BareCustomerRow {
  kind: 'bareCustomer';
  project: string;
  customerKey: string;
}

/** An API key as copied between stores (its hash, so the key keeps working). */
export interface ApiKeyRow {
  kind: 'apiKey';
  record: ApiKeyRecord;
}

/** One access log batch as copied between stores (its entries as written; the per-record table is rebuilt). */
export interface AccessLogBatchRow {
  kind: 'accessLogBatch';
  batch: AccessLogBatch;
}

/** One change feed entry as copied between stores: in feed order, its bytes as written (a new position is given on arrival). */
export interface ChangeRow {
  kind: 'change';
  project: string;
  /** Identity of the record in the feed (one entry per record: change-items.ts feedRecord). */
  record: string;
  recordKey: string;
  /** The etag the entry names; null for an erase. */
  etag: string | null;
  item: Buffer;
}

/** An erasure's tombstone as copied between stores: ids and the erasure instant only. */
export interface ErasureRow {
  kind: 'erasure';
  project: string;
  tombstone: TombstoneKind;
  recordKey: string;
  erasedKey: string;
}

/** A document file an erasure or prune left to delete, as copied between stores. */
export interface FileDeletionRow {
  kind: 'fileDeletion';
  project: string;
  objectKey: string;
}

/** One stored row as `copy` moves it: records exactly as stored, bare customers, API keys, access log batches, the change feed, tombstones, pending file deletions. */
export type StoreRow = Upsert | BareCustomerRow | CompanyListingRow | ApiKeyRow | AccessLogBatchRow | ChangeRow | ErasureRow | FileDeletionRow;

/**
 * A position in a project's change feed: SQLite orders by `seq` alone (xid is '0'); PostgreSQL by
 * the writing transaction's id, then `seq` (docs/spec-decisions.md, Change feed).
 */
export interface ChangePosition {
  xid: string;
  seq: string;
}

/** One entry of a feed page: its position, the lookup key of its record, and its wire-ready JSON item as `body`. */
export interface StoredChange extends RecordBytes {
  position: ChangePosition;
  recordKey: string;
}

/** A project's change stamp, opaque to callers, and whether the project changed since the one asked about. */
export interface ChangeStamp {
  stamp: string;
  changed: boolean;
}

/** How a wait for changes ended: something may have arrived, the time ran out, or too many waited already. */
export type WaitOutcome = 'changed' | 'timeout' | 'busy';

/** Storage for the three read operations, the import, the API keys and the access log, scoped by project. */
export interface Store extends AccessLogStore, AccessLogPruning {
  readonly dialect: 'sqlite' | 'postgres';
  /** Calls `listener` on each failed catch-up of the access log's per-record table (see AccessLogIndexFailure). */
  onAccessLogIndexFailure(listener: AccessLogIndexListener): void;
  /** A record's bytes, only the `fields` asked for (default all): the store moves them, never decides which an answer needs. */
  getCompany(project: string, key: string, fields?: ReadFields): Promise<RecordBytes | undefined>;
  getAlert(project: string, key: string, fields?: ReadFields): Promise<RecordBytes | undefined>;
  /** True once any record names the customer in the project (its record or an execution). */
  customerKnown(project: string, customerKey: string): Promise<boolean>;
  /** One page in keyset order; `fields` says which stored bytes each row carries (default all). */
  listExecutions(
    project: string,
    customerKey: string,
    filter: ExecutionFilter,
    after: ExecutionPosition | undefined,
    limit: number,
    fields?: ReadFields,
  ): Promise<readonly StoredExecution[]>;
  /** One page of alert summaries in keyset order; `fields` says which stored bytes of each summary a row carries. */
  listAlerts(project: string, filter: AlertFilter, after: AlertPosition | undefined, limit: number, fields?: ReadFields): Promise<readonly StoredAlertSummary[]>;
  /** How many of the project's alerts match `filter`, by status (a status no alert has is absent). */
  countAlerts(project: string, filter: AlertCountFilter): Promise<ReadonlyMap<string, number>>;
  /** One page of the project's company summaries (filters, search, keyset); `fields` as for listExecutions. */
  listCompanies(project: string, filter: CompanyFilter, after: CompanyPosition | undefined, limit: number, fields?: ReadFields): Promise<readonly StoredCompany[]>;
  /**
   * The project's change stamp now, and whether anything of the project changed since `since` (a
   * stamp this store gave earlier; false without one). A page read after taking a stamp is current
   * for as long as nothing changed since that stamp (`src/store/list-page-cache.ts`).
   */
  changeStamp(project: string, since?: string): Promise<ChangeStamp>;
  /**
   * The project's change epoch, found by a change stamp check taken after the call: what is read
   * after it and kept with it is current while the epoch stays the same (src/store/change-epochs.ts;
   * the list pages and kept record answers are checked this way).
   */
  changeEpoch(project: string): Promise<number>;
  /** A page of the project's change feed, oldest first, strictly after `after` (undefined: from the beginning). */
  listChanges(project: string, after: ChangePosition | undefined, limit: number): Promise<StoredChange[]>;
  /**
   * Resolves when a change of `project` past `after` may have arrived (from this process or another),
   * after `ms`, or when `signal` aborts; no busy loop per waiter. 'busy' at once when too many wait.
   */
  waitForChanges(project: string, after: ChangePosition | undefined, ms: number, signal?: AbortSignal): Promise<WaitOutcome>;
  /** Writes a batch atomically, each stored record's change feed entry with it; returns one outcome per item, in order. */
  writeBatch(items: readonly Upsert[]): Promise<WriteOutcome[]>;

  /**
   * Erases a customer of the project in one transaction: its record with its company list and
   * search rows, its executions, the alerts naming it, each one's feed entry replaced by an erase
   * item, and a tombstone per customer and alert (an older version imported later is stale).
   * The files it names are kept in file_deletions until `forgetFileDeletions`. A dry run only counts.
   */
  eraseCustomer(project: string, customerKey: string, options: { dryRun: boolean }): Promise<Erasure>;
  /**
   * Removes the records of `kind` (every project) whose version instant key is before `beforeKey`,
   * as an erasure does but without tombstones, in transactions of a chunk each; a dry run counts them.
   */
  pruneRecords(kind: PruneKind, beforeKey: string, options: { dryRun: boolean }): Promise<Pruning>;
  /** Files deleted from the file store (or that cannot be there): no longer pending. */
  forgetFileDeletions(files: readonly FileRef[]): Promise<void>;

  insertApiKey(key: ApiKeyRecord): Promise<void>;
  findApiKeyByHash(hash: string): Promise<ApiKeyRecord | undefined>;
  listApiKeys(project?: string): Promise<ApiKeyRecord[]>;
  /** Marks a key revoked; false when no such key. */
  revokeApiKey(id: string, at: string): Promise<boolean>;
  /**
   * A token that changes whenever API keys may have changed, in this process or another; null
   * when the store cannot tell right now. Lets a verifier keep keys in memory and still refuse a
   * revoked key on the next request.
   */
  apiKeysGeneration(): string | number | null;

  /** A random secret created with the store, shared by every replica (cursor and URL signing). */
  secret(): Promise<Buffer>;
  /** Replaces the secret; replicas already running keep the old one until restarted. */
  setSecret(secret: Buffer): Promise<void>;

  /** How many schema migrations the store has applied. */
  schemaVersion(): Promise<number>;
  /** True when any customer, alert or execution is stored. */
  hasRecords(): Promise<boolean>;
  /**
   * Every row (customers, alerts, executions, then API keys), in keyset chunks of at most
   * `chunkRows`, read from one snapshot so concurrent writes never tear the copy.
   */
  exportRows(chunkRows: number): AsyncIterable<StoreRow[]>;
  /**
   * Writes exported rows as they are, in one transaction: a row replaces the stored row with its
   * key (no version rule), a bare customer never replaces a record, derived index rows follow.
   */
  importRows(rows: readonly StoreRow[]): Promise<void>;
  /** Cheap round trip proving the store answers. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
