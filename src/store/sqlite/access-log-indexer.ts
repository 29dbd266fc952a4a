/**
 * Catches the access log's per-record table up on a worker thread with its own connection, every
 * few seconds, so the bulk work (one sorted insert of everything logged since) never runs on the
 * thread serving reads.
 */
import type { Worker } from 'node:worker_threads';
import { startWorker } from '../../workers/start-worker.js';

/** How often the worker catches up (it also does once more when closed). */
export const INDEX_EVERY_MS = 10_000;

/** The worker thread indexing the access log of one SQLite file. */
export class AccessLogIndexer {
  private readonly worker: Worker;

  constructor(file: string) {
    this.worker = startWorker(import.meta.url, 'access-log-index-worker', { file, everyMs: INDEX_EVERY_MS });
    // A failure of the thread leaves batches flagged, and queries read those too: nothing to recover.
    this.worker.on('error', () => undefined);
    // It must not keep the process alive on its own.
    this.worker.unref();
  }

  /** Stops the thread (a catch-up under way is cut short and rolled back; the batches stay flagged). */
  async close(): Promise<void> {
    await this.worker.terminate();
  }
}
