/** A pool of import workers; chunks go round-robin and come back as promises, awaited in order. */
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { startWorker } from '../threads/start-worker.js';
import type { Upsert } from '../store/store.js';
import type { LineResult } from './process-line.js';
import type { ShapeAnswer, ShapeTask } from './shape-worker.js';
import { asBuffer, transferList } from '../threads/owned-bytes.js';

/** Workers by default: every core but the one the importer itself (reading, writing) uses. */
export function defaultWorkers(): number {
  return Math.max(1, availableParallelism() - 1);
}

/** Buffers arrive from a worker as plain Uint8Arrays; the store expects Buffers. */
function asBufferOrNull(u8: Uint8Array | null): Buffer | null {
  return u8 === null ? null : asBuffer(u8);
}

function revive(result: LineResult): LineResult {
  if (result.kind !== 'record') return result.line === undefined ? result : { ...result, line: asBuffer(result.line) };
  const u = result.upsert;
  const upsert = { ...u, body: asBuffer(u.body), deflated: asBufferOrNull(u.deflated) } as Upsert;
  return { ...result, upsert };
}

// A worker's live data is one chunk of lines and its results; V8's default young generation
// (48 MB on 64-bit) is mostly garbage between scavenges yet stays resident, per worker.
const WORKER_LIMITS = { maxYoungGenerationSizeMb: 12 };

/** The workers of one import. */
export class ShapePool {
  private readonly workers: Worker[];
  private readonly pending = new Map<number, { resolve: (r: LineResult[]) => void; reject: (e: Error) => void }>();
  private next = 0;

  constructor(size: number) {
    this.workers = Array.from({ length: size }, () => {
      const w = startWorker(import.meta.url, 'shape-worker', undefined, WORKER_LIMITS);
      w.on('message', (answer: ShapeAnswer) => {
        const p = this.pending.get(answer.id);
        this.pending.delete(answer.id);
        p?.resolve(answer.results.map(revive));
      });
      w.on('error', (err) => this.failAll(err));
      return w;
    });
  }

  /** Sends a chunk of lines to the next worker; owned lines are moved there (see transferList). */
  shape(lines: Buffer[], gzipLevel: number | null): Promise<LineResult[]> {
    const id = this.next++;
    const worker = this.workers[id % this.workers.length]!;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      // Lines that own their memory are moved, not copied: the caller must not read them again
      // (a reject comes back with its line).
      worker.postMessage({ id, lines, gzipLevel } satisfies ShapeTask, transferList(lines));
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
