/** A pool of import workers; chunks go round-robin and come back as promises, awaited in order. */
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { startWorker } from '../workers/start-worker.js';
import type { Upsert } from '../store/store.js';
import type { LineResult } from './process-line.js';
import type { ShapeAnswer, ShapeTask } from './shape-worker.js';

/** Workers by default: every core but the one the importer itself (reading, writing) uses. */
export function defaultWorkers(): number {
  return Math.max(1, availableParallelism() - 1);
}

/** Buffers arrive from a worker as plain Uint8Arrays; the store expects Buffers. */
function asBuffer(u8: Uint8Array | null): Buffer | null {
  return u8 === null ? null : Buffer.from(u8.buffer, u8.byteOffset, u8.byteLength);
}

function revive(result: LineResult): LineResult {
  if (result.kind !== 'record') return result;
  const u = result.upsert;
  const upsert = { ...u, body: asBuffer(u.body)!, gz: asBuffer(u.gz) } as Upsert;
  return { ...result, upsert };
}

/** The workers of one import. */
export class ShapePool {
  private readonly workers: Worker[];
  private readonly pending = new Map<number, { resolve: (r: LineResult[]) => void; reject: (e: Error) => void }>();
  private next = 0;

  constructor(size: number) {
    this.workers = Array.from({ length: size }, () => {
      const w = startWorker(import.meta.url, 'shape-worker');
      w.on('message', (answer: ShapeAnswer) => {
        const p = this.pending.get(answer.id);
        this.pending.delete(answer.id);
        p?.resolve(answer.results.map(revive));
      });
      w.on('error', (err) => this.failAll(err));
      return w;
    });
  }

  /** Sends a chunk of lines to the next worker. */
  shape(lines: Buffer[], gzipLevel: number | null): Promise<LineResult[]> {
    const id = this.next++;
    const worker = this.workers[id % this.workers.length]!;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, lines, gzipLevel } satisfies ShapeTask);
    });
  }

  private failAll(err: Error): void {
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
  }

  /** Stops the workers. */
  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}
