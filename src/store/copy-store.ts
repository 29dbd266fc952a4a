/** Moving a whole store to another (SQLite or PostgreSQL, either way) without re-importing. */
import { isStorableText, storableText } from '../contract/storable-text.js';
import type { AccessLogBatch } from '../access-log/access-log.js';
import type { StoredEntry } from '../access-log/chunk.js';
import type { Store, StoreRow } from './store.js';

/** Rows copied, per table. */
export interface CopyCounts {
  /** Customers with a record of their own. */
  customers: number;
  /** Customers known only because executions name them. */
  bareCustomers: number;
  /** Companies' rows of the company list (summary bytes, filter columns, search text). */
  companies: number;
  alerts: number;
  executions: number;
  apiKeys: number;
  /** Access log batches (each holds one flush's entries of one project). */
  accessLogBatches: number;
  /** Change feed entries (one per record that has one). */
  changes: number;
  /** Tombstones of erased customers and alerts. */
  erasures: number;
  /** Document files of erased or pruned records still to delete. */
  fileDeletions: number;
}

/** How a copy runs. */
export interface CopyOptions {
  /** Rows per read and per write transaction; default 1000. */
  chunkRows?: number;
  /** Copy into a target that already holds records: rows of the source replace rows with the same key. */
  force?: boolean;
  /** Called after each chunk is written, with the counts so far. */
  onProgress?: (counts: CopyCounts) => void;
  /** Called for each row copied with NUL or lone surrogates replaced by U+FFFD (see storableRow). */
  onRewritten?: (row: string) => void;
}

/** The target already holds records and the copy was not forced. */
export class TargetNotEmptyError extends Error {
  constructor() {
    super('the target store already holds records; copy into an empty store, or pass --force to merge into it');
    this.name = 'TargetNotEmptyError';
  }
}

/** Zero of every count. */
export function emptyCounts(): CopyCounts {
  return { customers: 0, bareCustomers: 0, companies: 0, alerts: 0, executions: 0, apiKeys: 0, accessLogBatches: 0, changes: 0, erasures: 0, fileDeletions: 0 };
}

/** The sum of every count. */
export function totalRows(c: CopyCounts): number {
  return c.customers + c.bareCustomers + c.companies + c.alerts + c.executions + c.apiKeys + c.accessLogBatches + c.changes + c.erasures + c.fileDeletions;
}

const COUNTED: Record<StoreRow['kind'], keyof CopyCounts> = {
  customer: 'customers',
  bareCustomer: 'bareCustomers',
  companyListing: 'companies',
  alert: 'alerts',
  execution: 'executions',
  apiKey: 'apiKeys',
  accessLogBatch: 'accessLogBatches',
  change: 'changes',
  erasure: 'erasures',
  fileDeletion: 'fileDeletions',
};

/**
 * Copies every row of `from` into `to`, then the secret, so API keys, signed cursors and signed
 * file URLs made against the source stay valid against the target.
 */
export async function copyStore(from: Store, to: Store, options: CopyOptions = {}): Promise<CopyCounts> {
  if (!options.force && (await to.hasRecords())) throw new TargetNotEmptyError();
  const counts = emptyCounts();
  const chunks = from.exportRows(options.chunkRows ?? 1000)[Symbol.asyncIterator]();
  try {
    // One chunk ahead: the source reads the next chunk while the target writes this one.
    let next = chunks.next();
    for (;;) {
      const chunk = await next;
      if (chunk.done) break;
      next = chunks.next();
      // A read failing while this chunk is written is awaited (and thrown) on the next turn.
      next.catch(() => undefined);
      await to.importRows(chunk.value.map((row) => storableRow(row, options.onRewritten)));
      for (const row of chunk.value) counts[COUNTED[row.kind]]++;
      options.onProgress?.({ ...counts });
    }
  } finally {
    // Ends the source's snapshot early when the target failed.
    await chunks.return?.();
  }
  await to.setSecret(await from.secret());
  // Copied access log batches are found by record at once, not after the target's first reads.
  if (counts.accessLogBatches > 0) await to.indexAccessLog();
  return counts;
}

/**
 * The row with NUL and lone surrogates replaced by U+FFFD in every value the target keeps as
 * text (records' bodies stay as they are: JSON escapes them). An older version stored such
 * values in SQLite, which holds them; PostgreSQL refuses them, and would end the copy.
 */
export function storableRow(row: StoreRow, onRewritten?: (row: string) => void): StoreRow {
  const out = rewritten(row);
  if (out !== row) onRewritten?.(describeRow(row));
  return out;
}

function rewritten(row: StoreRow): StoreRow {
  switch (row.kind) {
    case 'customer':
    case 'alert':
      return allStorable(row.project, row.key) ? row : { ...row, project: storableText(row.project), key: storableText(row.key) };
    case 'execution':
      if (allStorable(row.project, row.key, row.customerKey, row.executionId, row.status ?? '', ...row.scenarioIds)) return row;
      return {
        ...row,
        project: storableText(row.project),
        key: storableText(row.key),
        customerKey: storableText(row.customerKey),
        executionId: storableText(row.executionId),
        status: row.status === null ? null : storableText(row.status),
        scenarioIds: row.scenarioIds.map(storableText),
      };
    case 'companyListing':
      return allStorable(row.project, row.key) ? row : { ...row, project: storableText(row.project), key: storableText(row.key) };
    case 'bareCustomer':
      return allStorable(row.project, row.customerKey) ? row : { ...row, project: storableText(row.project), customerKey: storableText(row.customerKey) };
    case 'apiKey':
      return allStorable(row.record.project, row.record.name ?? '') ? row : { ...row, record: { ...row.record, project: storableText(row.record.project), name: row.record.name === null ? null : storableText(row.record.name) } };
    case 'change':
      return allStorable(row.project, row.record, row.recordKey) ? row : { ...row, project: storableText(row.project), record: storableText(row.record), recordKey: storableText(row.recordKey) };
    case 'erasure':
      return allStorable(row.project, row.recordKey) ? row : { ...row, project: storableText(row.project), recordKey: storableText(row.recordKey) };
    case 'fileDeletion':
      return allStorable(row.project, row.objectKey) ? row : { ...row, project: storableText(row.project), objectKey: storableText(row.objectKey) };
    case 'accessLogBatch': {
      const b = row.batch;
      return UNSTORABLE_IN_JSON.test(b.entries) || UNSTORABLE_IN_JSON.test(b.records) || !isStorableText(b.project) ? { ...row, batch: storableBatch(b) } : row;
    }
  }
}

function allStorable(...values: string[]): boolean {
  return values.every(isStorableText);
}

/** NUL or a surrogate, as a JSON escape or as the character itself (a paired one may match too: it is then rewritten unchanged). */
const UNSTORABLE_IN_JSON = /\\u(0000|d[89a-f])|[\0\p{Surrogate}]/iu;

/** The batch's entries and record ids parsed and written again with storable text, as new entries are (AccessLogChunk). */
function storableBatch(b: AccessLogBatch): AccessLogBatch {
  const text = (v: string | null): string | null => (v === null ? null : storableText(v));
  // The optional slots after the seventh (a summary's count, an answer's returned records) are kept.
  const entries = (JSON.parse(b.entries) as StoredEntry[]).map(([at, keyId, route, recordId, status, requestId, client, ...tail]): StoredEntry => [
    at,
    text(keyId),
    storableText(route),
    text(recordId),
    status,
    storableText(requestId),
    storableText(client),
    ...tail.map((slot) => (Array.isArray(slot) ? slot.map(storableText) : slot)),
  ]);
  const records = [...new Set((JSON.parse(b.records) as string[]).map(storableText))];
  return { ...b, project: storableText(b.project), entries: JSON.stringify(entries), records: JSON.stringify(records) };
}

function describeRow(row: StoreRow): string {
  switch (row.kind) {
    case 'accessLogBatch':
      return `an access log batch of project ${JSON.stringify(row.batch.project)}`;
    case 'apiKey':
      return `API key ${row.record.id}`;
    case 'bareCustomer':
      return `customer ${JSON.stringify(row.customerKey)} of project ${JSON.stringify(row.project)}`;
    case 'change':
      return `the change feed entry of ${row.record} of project ${JSON.stringify(row.project)}`;
    case 'erasure':
      return `the tombstone of ${row.tombstone} ${JSON.stringify(row.recordKey)} of project ${JSON.stringify(row.project)}`;
    case 'fileDeletion':
      return `the pending deletion of file ${JSON.stringify(row.objectKey)} of project ${JSON.stringify(row.project)}`;
    default:
      return `${row.kind} ${JSON.stringify(row.key)} of project ${JSON.stringify(row.project)}`;
  }
}
