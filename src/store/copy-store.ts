/** Moving a whole store to another (SQLite or PostgreSQL, either way) without re-importing. */
import type { Store, StoreRow } from './store.js';

/** Rows copied, per table. */
export interface CopyCounts {
  /** Customers with a record of their own. */
  customers: number;
  /** Customers known only because executions name them. */
  bareCustomers: number;
  alerts: number;
  executions: number;
  apiKeys: number;
  /** Access log batches (each holds one flush's entries of one project). */
  accessLogBatches: number;
}

/** How a copy runs. */
export interface CopyOptions {
  /** Rows per read and per write transaction; default 1000. */
  chunkRows?: number;
  /** Copy into a target that already holds records: rows of the source replace rows with the same key. */
  force?: boolean;
  /** Called after each chunk is written, with the counts so far. */
  onProgress?: (counts: CopyCounts) => void;
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
  return { customers: 0, bareCustomers: 0, alerts: 0, executions: 0, apiKeys: 0, accessLogBatches: 0 };
}

/** The sum of every count. */
export function totalRows(c: CopyCounts): number {
  return c.customers + c.bareCustomers + c.alerts + c.executions + c.apiKeys + c.accessLogBatches;
}

const COUNTED: Record<StoreRow['kind'], keyof CopyCounts> = {
  customer: 'customers',
  bareCustomer: 'bareCustomers',
  alert: 'alerts',
  execution: 'executions',
  apiKey: 'apiKeys',
  accessLogBatch: 'accessLogBatches',
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
      await to.importRows(chunk.value);
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
