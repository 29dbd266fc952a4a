/**
 * Catches the access log's per-record table up on a worker thread with its own connection, every
 * few seconds, so the bulk work (one sorted insert of everything logged since) never runs on the
 * thread serving reads.
 */
import type { Worker } from 'node:worker_threads';
import { startWorker } from '../../threads/start-worker.js';
import type { AccessLogIndexFailure } from '../../access-log/access-log.js';
import { StoreError, StoreUnavailableError } from '../store-errors.js';
import type { PostedIndexFailure } from './access-log-index-worker.js';

/** How often the worker catches up (it also does once more when closed). */
export const INDEX_EVERY_MS = 10_000;

/** The worker thread indexing the access log of one SQLite file. */
export class AccessLogIndexer {
  private readonly worker: Worker;

  /** `report` hears of each failed catch-up: the batches stay flagged, and queries read those too. */
  constructor(file: string, report: (failure: AccessLogIndexFailure) => void, everyMs = INDEX_EVERY_MS) {
    this.worker = startWorker(import.meta.url, 'access-log-index-worker', { file, everyMs });
    this.worker.on('message', (m: PostedIndexFailure) => {
      const err = m.unavailable ? new StoreUnavailableError(m.message) : new StoreError(m.message);
      report(m.batch === undefined ? { err } : { err, batch: m.batch });
    });
    this.worker.on('error', (err) => report({ err: new StoreError(`SQLite access log catch-up thread failed: ${err.message}`, { cause: err }) }));
    // It must not keep the process alive on its own.
    this.worker.unref();
  }

  /** Stops the thread (a catch-up under way is cut short and rolled back; the batches stay flagged). */
  async close(): Promise<void> {
    await this.worker.terminate();
  }
}
