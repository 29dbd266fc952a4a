/**
 * Record writes of a serving SQLite store on a worker thread with its own connection. A batch's
 * transaction, its wait for the file's write lock (up to the busy time-out while another process
 * writes) and the sync of its commit hold that thread, not the one answering reads. Batches are
 * written one at a time, in the order they were asked, as on the store's own connection.
 */
import type { Worker } from 'node:worker_threads';
import { startWorker } from '../../threads/start-worker.js';
import type { Upsert, WriteOutcome } from '../store.js';

/** One batch to write. */
export interface WriteRequest {
  id: number;
  items: readonly Upsert[];
}

/** The worker's answer: each record's outcome, or the error SQLite raised (translated by the store, as on its own connection). */
export type WriteAnswer = { id: number; ok: true; outcomes: WriteOutcome[] } | { id: number; ok: false; message: string; code: string | undefined };

interface Waiter {
  resolve: (outcomes: WriteOutcome[]) => void;
  reject: (err: Error) => void;
}

/** The write thread of one SQLite file. */
export class SqliteWriteThread {
  private readonly worker: Worker;
  private readonly waiting = new Map<number, Waiter>();
  private readonly settled = new Set<Promise<unknown>>();
  private nextId = 0;
  private broken: Error | undefined;

  constructor(file: string) {
    this.worker = startWorker(import.meta.url, 'write-thread-worker', { file });
    this.worker.on('message', (answer: WriteAnswer) => this.settle(answer));
    this.worker.on('error', (err) => this.fail(err));
    this.worker.on('exit', () => this.fail(new Error('the SQLite write thread stopped')));
    // Only writes in flight keep the process alive; an idle thread must not.
    this.worker.unref();
  }

  /** False once the thread has failed: the store then writes on its own connection again. */
  get usable(): boolean {
    return this.broken === undefined;
  }

  /** Writes one batch in one transaction; each record's outcome in the batch's order. */
  write(items: readonly Upsert[]): Promise<WriteOutcome[]> {
    if (this.broken !== undefined) return Promise.reject(this.broken);
    const id = this.nextId++;
    const written = new Promise<WriteOutcome[]>((resolve, reject) => this.waiting.set(id, { resolve, reject }));
    const done = (): boolean => this.settled.delete(written);
    this.settled.add(written);
    written.then(done, done);
    if (this.waiting.size === 1) this.worker.ref();
    // Copied, not moved: the caller's records stay whole.
    this.worker.postMessage({ id, items } satisfies WriteRequest);
    return written;
  }

  private settle(answer: WriteAnswer): void {
    const waiter = this.waiting.get(answer.id);
    this.waiting.delete(answer.id);
    if (this.waiting.size === 0) this.worker.unref();
    if (waiter === undefined) return;
    if (answer.ok) waiter.resolve(answer.outcomes);
    else waiter.reject(Object.assign(new Error(answer.message), { code: answer.code }));
  }

  private fail(err: Error): void {
    this.broken ??= err;
    for (const w of this.waiting.values()) w.reject(this.broken);
    this.waiting.clear();
  }

  /** Stops the thread once the batches it was given are written. */
  async close(): Promise<void> {
    await Promise.allSettled([...this.settled]);
    this.fail(new Error('the SQLite store is closed'));
    await this.worker.terminate();
  }
}
