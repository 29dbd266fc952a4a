/**
 * The writes of a serving SQLite store on a worker thread with its own connection: pushed
 * records, erasures and the file deletions they leave. A write's transaction, its wait for the
 * file's write lock (up to the busy time-out while another process writes), the sync of its commit
 * and an erasure's checkpoint hold that thread, not the one answering reads. Writes run one at a
 * time, in the order they were asked, as on the store's own connection.
 */
import type { Worker } from 'node:worker_threads';
import { startWorker } from '../../threads/start-worker.js';
import type { Erasure, FileRef } from '../erasure.js';
import type { Upsert, WriteOutcome } from '../store.js';

/** The writes the thread makes, each with what it answers. */
export type WriteOp =
  | { op: 'write'; items: readonly Upsert[] }
  | { op: 'erase'; project: string; customerKey: string; dryRun: boolean }
  | { op: 'forget'; files: readonly FileRef[] };

/** What each write answers. */
export interface WriteValues {
  write: WriteOutcome[];
  erase: Erasure;
  forget: undefined;
}

/** One write to make. */
export type WriteRequest = WriteOp & { id: number };

/** The worker's answer: the write's value, or the error SQLite raised (translated by the store, as on its own connection). */
export type WriteAnswer = { id: number; ok: true; value: unknown } | { id: number; ok: false; message: string; code: string | undefined };

interface Waiter {
  resolve: (value: unknown) => void;
  reject: (err: Error) => void;
  /** Settles with the write, for close to wait on. */
  done: Promise<unknown>;
}

/** The write thread of one SQLite file. */
export class SqliteWriteThread {
  private readonly worker: Worker;
  private readonly waiting = new Map<number, Waiter>();
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

  /** Makes one write on the thread's connection; its value once committed. */
  run<O extends WriteOp>(write: O): Promise<WriteValues[O['op']]> {
    if (this.broken !== undefined) return Promise.reject(this.broken);
    const id = this.nextId++;
    let waiter!: Omit<Waiter, 'done'>;
    const done = new Promise<unknown>((resolve, reject) => (waiter = { resolve, reject }));
    this.waiting.set(id, { ...waiter, done });
    if (this.waiting.size === 1) this.worker.ref();
    // Copied, not moved: the caller's records stay whole.
    this.worker.postMessage({ ...write, id } satisfies WriteRequest);
    return done as Promise<WriteValues[O['op']]>;
  }

  private settle(answer: WriteAnswer): void {
    const waiter = this.waiting.get(answer.id);
    this.waiting.delete(answer.id);
    if (this.waiting.size === 0) this.worker.unref();
    if (waiter === undefined) return;
    if (answer.ok) waiter.resolve(answer.value);
    else waiter.reject(Object.assign(new Error(answer.message), { code: answer.code }));
  }

  private fail(err: Error): void {
    this.broken ??= err;
    for (const w of this.waiting.values()) w.reject(this.broken);
    this.waiting.clear();
  }

  /** Stops the thread once the writes it was given are made. */
  async close(): Promise<void> {
    await Promise.allSettled([...this.waiting.values()].map((w) => w.done));
    this.fail(new Error('the SQLite store is closed'));
    await this.worker.terminate();
  }
}
