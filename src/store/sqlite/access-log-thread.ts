/** The main-thread side of the access log worker: batches go out, acknowledgements come back. */
import type { Worker } from 'node:worker_threads';
import { startWorker } from '../../workers/start-worker.js';
import type { NewBatch } from '../access-log-batches.js';

/** One worker thread appending to the access log of one SQLite file. */
export class AccessLogThread {
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve: () => void; reject: (e: Error) => void }>();
  private readonly inflight = new Set<Promise<void>>();
  private next = 0;

  constructor(file: string) {
    this.worker = startWorker(import.meta.url, 'access-log-worker', { file });
    this.worker.on('message', (msg: { id: number; error?: string }) => {
      const p = this.pending.get(msg.id);
      this.pending.delete(msg.id);
      if (msg.error === undefined) p?.resolve();
      else p?.reject(new Error(`access log write failed: ${msg.error}`));
      // Idle between batches: the thread must not keep the process alive on its own.
      if (this.pending.size === 0) this.worker.unref();
    });
    this.worker.on('error', (err) => {
      for (const p of this.pending.values()) p.reject(err);
      this.pending.clear();
    });
    this.worker.unref();
  }

  /** Appends batches; resolves once they are committed. */
  append(batches: readonly NewBatch[]): Promise<void> {
    const id = this.next++;
    const done = new Promise<void>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.ref(); // a batch is on its way: keep the process alive for its answer
      // Batches are strings already (the entries JSON): cloning them is a copy, not a walk of objects.
      this.worker.postMessage({ id, batches });
    });
    this.inflight.add(done);
    void done.then(
      () => this.inflight.delete(done),
      () => this.inflight.delete(done),
    );
    return done;
  }

  /** Stops the thread once what was sent is written. */
  async close(): Promise<void> {
    await Promise.allSettled([...this.inflight]);
    await this.worker.terminate();
  }
}
