/**
 * The access log's own thread on SQLite, with its own connection: it writes the batches the
 * serving thread hands over (so a commit never stalls the answers waiting on that thread) and,
 * every few seconds, catches the per-record table up in bulk and checkpoints the file.
 */
import type { Worker } from 'node:worker_threads';
import { startWorker } from '../../threads/start-worker.js';
import type { AccessLogBatch, AccessLogIndexFailure } from '../../access-log/access-log.js';
import { StoreError, StoreUnavailableError } from '../store-errors.js';
import type { PostedFailure, WorkerMessage, WriteRequest } from './access-log-thread-worker.js';

/** How often the worker catches up. */
export const INDEX_EVERY_MS = 10_000;

function errorOf(f: PostedFailure): StoreError {
  return f.unavailable ? new StoreUnavailableError(f.message) : new StoreError(f.message);
}

/** The worker thread writing and indexing the access log of one SQLite file. */
export class AccessLogThread {
  private readonly worker: Worker;
  private readonly writes = new Map<number, { resolve(): void; reject(err: Error): void }>();
  private readonly underWay = new Set<Promise<void>>();
  private lastId = 0;
  /** Set once the thread is gone: writes fail at once, and the store starts another. */
  stopped: Error | undefined;

  /** `report` hears of each failed catch-up: the batches stay flagged, and queries read those too. */
  constructor(file: string, report: (failure: AccessLogIndexFailure) => void, everyMs = INDEX_EVERY_MS) {
    this.worker = startWorker(import.meta.url, 'access-log-thread-worker', { file, everyMs });
    this.worker.on('message', (m: WorkerMessage) => {
      if ('indexFailure' in m) {
        const { batch, ...failure } = m.indexFailure;
        report(batch === undefined ? { err: errorOf(failure) } : { err: errorOf(failure), batch });
        return;
      }
      const write = this.writes.get(m.written);
      this.settled(m.written);
      if (m.failure === undefined) write?.resolve();
      else write?.reject(errorOf(m.failure));
    });
    this.worker.on('error', (err) => {
      const failure = new StoreError(`SQLite access log thread failed: ${err.message}`, { cause: err });
      report({ err: failure });
      this.stop(failure);
    });
    this.worker.on('exit', () => this.stop(new StoreUnavailableError('the SQLite access log thread has stopped')));
    // Idle, it must not keep the process alive on its own; a write under way does (see write).
    this.worker.unref();
  }

  /** Writes batches, one row each, in one transaction on the thread's connection. */
  write(batches: readonly AccessLogBatch[]): Promise<void> {
    if (this.stopped !== undefined) return Promise.reject(this.stopped);
    const id = ++this.lastId;
    const written = new Promise<void>((resolve, reject) => {
      this.writes.set(id, { resolve, reject });
      if (this.writes.size === 1) this.worker.ref();
      this.worker.postMessage({ id, batches: [...batches] } satisfies WriteRequest);
    });
    this.underWay.add(written);
    const done = (): boolean => this.underWay.delete(written);
    written.then(done, done);
    return written;
  }

  private settled(id: number): void {
    this.writes.delete(id);
    if (this.writes.size === 0) this.worker.unref();
  }

  private stop(err: Error): void {
    this.stopped ??= err;
    for (const [id, w] of this.writes) {
      this.settled(id);
      w.reject(this.stopped);
    }
  }

  /** Stops the thread (a catch-up under way is cut short and rolled back; the batches stay flagged). */
  async close(): Promise<void> {
    // Writes already handed over are let finish: their entries are kept nowhere else.
    await Promise.allSettled(this.underWay);
    await this.worker.terminate();
    this.stop(new StoreUnavailableError('the store is closed'));
  }
}
