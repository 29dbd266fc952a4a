/**
 * The access log's own thread on SQLite, with its own connection: it writes the batches the
 * serving thread hands over and prunes old ones (so a commit never stalls the answers waiting on
 * that thread, and the log's writes never meet each other's locks) and, every few seconds, catches
 * the per-record table up in bulk and checkpoints the file.
 */
import type { Worker } from 'node:worker_threads';
import { startWorker } from '../../threads/start-worker.js';
import type { AccessLogBatch, AccessLogIndexFailure } from '../../access-log/access-log.js';
import { StoreError, StoreUnavailableError } from '../store-errors.js';
import type { JobRequest, LogJob, PostedFailure, WorkerMessage } from './access-log-thread-worker.js';

/** How often the worker catches up. */
export const INDEX_EVERY_MS = 10_000;

function errorOf(f: PostedFailure): StoreError {
  return f.unavailable ? new StoreUnavailableError(f.message) : new StoreError(f.message);
}

/** The worker thread writing and indexing the access log of one SQLite file. */
export class AccessLogThread {
  private readonly worker: Worker;
  /** Jobs handed over and not answered yet, by id. */
  private readonly jobs = new Map<number, { done: Promise<unknown>; resolve(result: unknown): void; reject(err: Error): void }>();
  private lastId = 0;
  /** Set once the thread is gone: jobs fail at once, and the store starts another. */
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
      const job = this.jobs.get(m.done);
      this.settled(m.done);
      if (m.failure === undefined) job?.resolve(m.result);
      else job?.reject(errorOf(m.failure));
    });
    this.worker.on('error', (err) => {
      const failure = new StoreError(`SQLite access log thread failed: ${err.message}`, { cause: err });
      report({ err: failure });
      this.stop(failure);
    });
    this.worker.on('exit', () => this.stop(new StoreUnavailableError('the SQLite access log thread has stopped')));
    // Idle, it must not keep the process alive on its own; a job under way does (see run).
    this.worker.unref();
  }

  /** Writes batches, one row each, in one transaction on the thread's connection. */
  async write(batches: readonly AccessLogBatch[]): Promise<void> {
    await this.run({ write: batches });
  }

  /** Deletes old caught-up batches on the thread's connection (see pruneAccessLog in access-log-rows.ts). */
  prune(before: string, max: number): Promise<{ batches: number; entries: number }> {
    return this.run({ prune: { before, max } }) as Promise<{ batches: number; entries: number }>;
  }

  private run(job: LogJob): Promise<unknown> {
    if (this.stopped !== undefined) return Promise.reject(this.stopped);
    const id = ++this.lastId;
    let settle!: { resolve(result: unknown): void; reject(err: Error): void };
    const done = new Promise<unknown>((resolve, reject) => (settle = { resolve, reject }));
    this.jobs.set(id, { done, ...settle });
    if (this.jobs.size === 1) this.worker.ref();
    this.worker.postMessage({ id, job } satisfies JobRequest);
    return done;
  }

  private settled(id: number): void {
    this.jobs.delete(id);
    if (this.jobs.size === 0) this.worker.unref();
  }

  private stop(err: Error): void {
    this.stopped ??= err;
    for (const [id, job] of this.jobs) {
      this.settled(id);
      job.reject(this.stopped);
    }
  }

  /** Stops the thread (a catch-up under way is cut short and rolled back; the batches stay flagged). */
  async close(): Promise<void> {
    // Jobs already handed over are let finish: the entries of a write are kept nowhere else.
    await Promise.allSettled([...this.jobs.values()].map((job) => job.done));
    await this.worker.terminate();
    this.stop(new StoreUnavailableError('the store is closed'));
  }
}
