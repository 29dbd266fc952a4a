/**
 * Reads of a serving SQLite store on a worker thread with its own read-only connection: single
 * records, and (on a thread of their own) pages that scan, which can take a long time.
 *
 * The service has one JavaScript thread, and under load it is what saturates; a SQLite lookup on
 * it costs that thread several times what it costs alone (measured in bench/README.md). Here the
 * lookups of one event-loop turn go to the worker as one message and come back as one, their
 * blobs moved rather than copied, so the serving thread only sends and receives. Each statement
 * still reads the latest committed data (WAL), as a read on the serving connection would.
 */
import type { Worker } from 'node:worker_threads';
import { startWorker } from '../../threads/start-worker.js';
import { asBuffer } from '../../threads/owned-bytes.js';

/** How a connection that serves reads maps the file and caches pages: the serving connection's and the read thread's. */
export const SERVING_READ_PRAGMAS = ['mmap_size = 2147418112', 'cache_size = -65536'] as const;

/** One statement of a batch, answered with its first row, or with every row when `all`. */
export interface ReadRequest {
  sql: string;
  params: unknown[];
  all?: boolean;
}

/** The reads of one event-loop turn. */
export interface ReadBatch {
  id: number;
  reads: ReadRequest[];
}

/** What one read gave: its value, or the error SQLite raised. */
export type ReadOutcome = { ok: true; value: unknown } | { ok: false; message: string; code: string | undefined };

/** The worker's answer to a batch, outcomes in the batch's order. */
export interface ReadAnswer {
  id: number;
  outcomes: ReadOutcome[];
}

interface Waiter {
  resolve: (value: unknown) => void;
  reject: (err: Error) => void;
}

/** Blobs arrive as plain Uint8Arrays; the store hands out Buffers. */
function asBuffers(row: unknown): unknown {
  if (row === null || typeof row !== 'object') return row;
  const r = row as Record<string, unknown>;
  for (const [k, v] of Object.entries(r)) if (v instanceof Uint8Array) r[k] = asBuffer(v);
  return r;
}

/** The read thread of one SQLite file. */
export class SqliteReadThread {
  private readonly worker: Worker;
  /** The reads of this turn by statement and parameters: the same read asked many times is read once. */
  private queued = new Map<string, ReadRequest & { waiters: Waiter[] }>();
  private readonly sent = new Map<number, Waiter[][]>();
  private nextId = 0;
  private broken: Error | undefined;

  constructor(file: string) {
    this.worker = startWorker(import.meta.url, 'read-thread-worker', { file });
    this.worker.on('message', (answer: ReadAnswer) => this.settle(answer));
    this.worker.on('error', (err) => this.fail(err));
    this.worker.on('exit', () => this.fail(new Error('the SQLite read thread stopped')));
    // Only reads in flight keep the process alive (see flush and settle); an idle thread must not.
    this.worker.unref();
  }

  /** False once the thread has failed: the store then reads on its own connection again. */
  get usable(): boolean {
    return this.broken === undefined;
  }

  /** The first row of `sql`, or undefined. */
  get(sql: string, params: unknown[]): Promise<unknown> {
    return this.ask({ sql, params });
  }

  /** Every row of `sql`. */
  all(sql: string, params: unknown[]): Promise<unknown[]> {
    return this.ask({ sql, params, all: true }) as Promise<unknown[]>;
  }

  private ask(read: ReadRequest): Promise<unknown> {
    if (this.broken !== undefined) return Promise.reject(this.broken);
    return new Promise((resolve, reject) => {
      // Requests parsed in the same turn share one message each way, and many clients asking for the
      // same record in it share one copy of its bytes (a burst for one large record holds it once).
      if (this.queued.size === 0) setImmediate(() => this.flush());
      const key = `${read.all === true ? 'all' : 'get'}\0${read.sql}\0${JSON.stringify(read.params)}`;
      const same = this.queued.get(key);
      if (same !== undefined) same.waiters.push({ resolve, reject });
      else this.queued.set(key, { ...read, waiters: [{ resolve, reject }] });
    });
  }

  private flush(): void {
    const reads = [...this.queued.values()];
    this.queued = new Map();
    if (reads.length === 0) return;
    if (this.broken !== undefined) {
      for (const r of reads) for (const w of r.waiters) w.reject(this.broken);
      return;
    }
    const id = this.nextId++;
    if (this.sent.size === 0) this.worker.ref();
    this.sent.set(id, reads.map((r) => r.waiters));
    this.worker.postMessage({ id, reads: reads.map(({ sql, params, all }) => ({ sql, params, all })) } satisfies ReadBatch);
  }

  private settle(answer: ReadAnswer): void {
    const waiters = this.sent.get(answer.id);
    this.sent.delete(answer.id);
    if (this.sent.size === 0) this.worker.unref();
    if (waiters === undefined) return;
    answer.outcomes.forEach((o, i) => {
      if (o.ok && Array.isArray(o.value)) {
        const rows = o.value.map(asBuffers) as object[];
        for (const w of waiters[i]!) w.resolve(rows.map((row) => ({ ...row })));
      } else if (o.ok) {
        const row = asBuffers(o.value);
        // Each waiter gets its own row object; the bytes in it are shared (nothing writes to them).
        for (const w of waiters[i]!) w.resolve(row !== null && typeof row === 'object' ? { ...row } : row);
      } else {
        const err = Object.assign(new Error(o.message), { code: o.code });
        for (const w of waiters[i]!) w.reject(err);
      }
    });
  }

  private fail(err: Error): void {
    this.broken ??= err;
    for (const batch of this.sent.values()) for (const waiters of batch) for (const w of waiters) w.reject(this.broken);
    this.sent.clear();
  }

  /** Stops the thread; reads still waiting are refused. */
  async close(): Promise<void> {
    this.fail(new Error('the SQLite store is closed'));
    await this.worker.terminate();
  }
}
