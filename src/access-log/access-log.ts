/** The access log: its entries (append-only: who read, or tried to read, what) and the parts of a store that keep them. */

/** One read of a record, or one refused attempt. */
export interface AccessLogEntry {
  /** ISO 8601 UTC time of the answer. */
  at: string;
  /** The API key's id; null when no valid key was presented. */
  keyId: string | null;
  /** The key's project; '' when no valid key was presented. */
  project: string;
  /** The route pattern, e.g. /v1/companies/:id/details. */
  route: string;
  /** The lookup key of the record asked for (company, customer, alert or file), when there is one. */
  recordId: string | null;
  status: number;
  requestId: string;
  client: string;
  /**
   * Only on a summary entry: the number of refused answers (429, a spent budget) to this key and
   * address it stands for, from `at` to at most a summary interval later; absent on every other entry.
   */
  count?: number;
  /**
   * The lookup keys of the records a list or feed answer returned (at most MAX_ANSWER_RECORDS,
   * each at most ANSWER_RECORD_CHARS); absent when it returned none, and on every refused answer.
   */
  records?: readonly string[];
}

/** Characters of the record id kept in the entry of a refused answer (status 400 and above). */
export const REFUSED_RECORD_ID_CHARS = 128;

/** Keys of returned records kept per entry: more than any page returns, so an entry stays bounded. */
export const MAX_ANSWER_RECORDS = 1_000;

/** Characters kept of each returned record's key (as of the record id asked for). */
export const ANSWER_RECORD_CHARS = 512;

/** Which entries to read back, newest last. */
export interface AccessLogQuery {
  project: string;
  since?: string;
  until?: string;
  recordId?: string;
  limit: number;
}

/** One project's entries of one write, as the store keeps them (see batches.ts). */
export interface AccessLogBatch {
  project: string;
  firstAt: string;
  lastAt: string;
  /** JSON array of the stored entries. */
  entries: string;
  /** JSON array of the distinct record ids in the batch (asked for or returned), for the per-record table's catch-up. */
  records: string;
}

/** The access log part of a store: entries are only ever appended and read. */
export interface AccessLogStore {
  /** Appends batches (see AccessLogChunk, batchesOf), one row each, in one statement or transaction. */
  appendAccessLog(batches: readonly AccessLogBatch[]): Promise<void>;
  queryAccessLog(query: AccessLogQuery): Promise<AccessLogEntry[]>;
  /** Catches the per-record table up now (it is otherwise caught up in the background); returns the batches it covered. */
  indexAccessLog(): Promise<number>;
}

/** Retention of the access log: whole batches older than a cutoff are deleted, a bounded number at a time. */
export interface AccessLogPruning {
  /**
   * Deletes at most `maxBatches` whole batches whose every entry is older than `before` (ISO
   * 8601), with their rows in the per-record table; batches not caught up yet wait for a later
   * call. Returns the batches and entries deleted; fewer batches than `maxBatches` means none is left.
   */
  pruneAccessLog(before: string, maxBatches: number): Promise<{ batches: number; entries: number }>;
  /** What pruneAccessLog would delete before `before`, all batches counted (a dry run). */
  countAccessLogBefore(before: string): Promise<{ batches: number; entries: number }>;
}

/**
 * A catch-up of the per-record table that failed: all of it (`batch` absent), or one batch,
 * which stays flagged (queries still read it) while the others are caught up.
 */
export interface AccessLogIndexFailure {
  err: Error;
  batch?: { project: string; id: number };
}

/** Told of each failure of a catch-up: they happen in the background, where no caller sees a throw. */
export type AccessLogIndexListener = (failure: AccessLogIndexFailure) => void;
