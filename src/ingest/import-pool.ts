/** The import's worker threads (a piscina pool): each chunk of lines comes back as a promise, awaited in order by the importer. */
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { processLine, type LineResult } from './process-line.js';
import type { PrepareTask } from './prepare-worker.js';
import { transferList, withBuffers } from '../threads/owned-bytes.js';

// A worker's live data is one chunk of lines and its results; V8's default young generation
// (48 MB on 64-bit) is mostly garbage between scavenges yet stays resident, per worker, and its old
// generation grows toward the process's limit before V8 collects it.
const WORKER_LIMITS = { maxYoungGenerationSizeMb: 12, maxOldGenerationSizeMb: 64 };

/**
 * Lines longer than this are prepared on the importing thread, whose heap is not capped: parsing a
 * line takes several times its size, and a worker past its old generation's limit dies.
 */
export const WORKER_LINE_BYTES = 1024 * 1024;

/** The worker module beside this one: built JavaScript, or the TypeScript sources through tsx (tests, development). */
function workerModule(): { filename: string; execArgv?: string[] } {
  const fromSources = import.meta.url.endsWith('.ts');
  const filename = fileURLToPath(new URL(`./prepare-worker.${fromSources ? 'ts' : 'js'}`, import.meta.url));
  return fromSources ? { filename, execArgv: ['--import', 'tsx'] } : { filename };
}

/** Results prepared here, by position, merged with the worker's results for the other positions. */
function inOrder(count: number, here: ReadonlyMap<number, LineResult>, there: readonly LineResult[]): LineResult[] {
  const out: LineResult[] = [];
  let k = 0;
  for (let i = 0; i < count; i++) out.push(here.get(i) ?? there[k++]!);
  return out;
}

/** A chunk waiting for a worker: sent when one has room, or prepared here by `helpOne`. */
interface Waiting {
  lines: Buffer[];
  gzipLevel: number | null;
  resolve(results: LineResult[]): void;
  reject(err: unknown): void;
}

/** Chunks a worker holds at once: the next one waits in the worker while it prepares one. */
const CHUNKS_PER_WORKER = 2;

/** How a pool's threads live. */
export interface ImportPoolOptions {
  /**
   * Threads start when a chunk needs one and end after this many milliseconds without work, and
   * every line goes to them whatever its size (the service's pushes: its serving thread prepares
   * nothing). Unset: every thread runs from the start until close (an import).
   */
  idleMs?: number;
}

/**
 * The workers of one import; the importer bounds how many chunks are in flight. Chunks beyond
 * what the workers hold wait here, and the importing thread prepares them itself while it would
 * otherwise wait for a worker (`helpOne`): the two threads share the work whatever its balance.
 */
export class ImportPool {
  private readonly pool: Piscina<PrepareTask, LineResult[]>;
  /** Whether the caller's thread prepares nothing (on demand threads, see ImportPoolOptions). */
  private readonly workersOnly: boolean;
  private readonly inFlight = new Set<Promise<LineResult[]>>();
  private readonly waiting: Waiting[] = [];
  private readonly room: number;
  private sent = 0;

  constructor(
    readonly size: number,
    options: ImportPoolOptions = {},
  ) {
    this.room = size * CHUNKS_PER_WORKER;
    this.workersOnly = options.idleMs !== undefined;
    const threads = this.workersOnly
      ? // The old generation uncapped: a line as long as a push may carry is parsed there.
        { minThreads: 0, idleTimeout: options.idleMs, resourceLimits: { maxYoungGenerationSizeMb: WORKER_LIMITS.maxYoungGenerationSizeMb } }
      : { minThreads: size, resourceLimits: WORKER_LIMITS };
    this.pool = new Piscina({ ...workerModule(), ...threads, maxThreads: size, concurrentTasksPerWorker: CHUNKS_PER_WORKER });
  }

  /** Chunks the workers have prepared since the pool started. */
  get completed(): number {
    return this.pool.completed;
  }

  /**
   * Prepares a chunk of lines in a worker (owned lines are moved there, see transferList) or on
   * this thread, those over WORKER_LINE_BYTES always here; the results come back in the lines' order.
   */
  prepare(lines: Buffer[], gzipLevel: number | null): Promise<LineResult[]> {
    const here = new Map<number, LineResult>();
    const rest: Buffer[] = [];
    lines.forEach((line, i) => {
      if (line.length > WORKER_LINE_BYTES && !this.workersOnly) here.set(i, processLine(line, gzipLevel));
      else rest.push(line);
    });
    const prepared =
      rest.length === 0
        ? Promise.resolve([])
        : new Promise<LineResult[]>((resolve, reject) => {
            this.waiting.push({ lines: rest, gzipLevel, resolve, reject });
            this.send();
          });
    const results = here.size === 0 ? prepared : prepared.then((r) => inOrder(lines.length, here, r));
    this.inFlight.add(results);
    const settled = (): boolean => this.inFlight.delete(results);
    results.then(settled, settled);
    return results;
  }

  /**
   * Prepares the oldest chunk waiting for a worker on this thread, unless it is the only one: that
   * one is left for the worker that frees up first, which would otherwise run dry. False when none
   * was prepared.
   */
  helpOne(): boolean {
    if (this.waiting.length < 2 || this.workersOnly) return false;
    const w = this.waiting.shift()!;
    try {
      // Nothing was moved, so a reject's line is still the importer's own.
      w.resolve(w.lines.map((line) => processLine(line, w.gzipLevel)));
    } catch (err) {
      w.reject(err);
    }
    return true;
  }

  /** Hands waiting chunks to the workers while they have room. */
  private send(): void {
    while (this.sent < this.room && this.waiting.length > 0) {
      const w = this.waiting.shift()!;
      this.sent++;
      const done = (): void => {
        this.sent--;
        this.send();
      };
      // Lines that own their memory are moved, not copied: the caller must not read them again
      // (a reject comes back with its line).
      this.pool.run({ lines: w.lines, gzipLevel: w.gzipLevel } satisfies PrepareTask, { transferList: transferList(w.lines) }).then(
        (r) => {
          done();
          // Bytes arrive from a worker as plain Uint8Arrays; the store expects Buffers.
          w.resolve(withBuffers(r));
        },
        (err: unknown) => {
          done();
          w.reject(err);
        },
      );
    }
  }

  /** Stops the workers once the chunks still in flight (an import that stopped drops them) are done. */
  async close(): Promise<void> {
    // Chunks no worker took are dropped: the importer stopped before it needed them.
    for (const w of this.waiting.splice(0)) w.reject(new Error('the import stopped before this chunk was prepared'));
    // Destroying the pool under a running chunk fails its promise, or piscina on the late answer.
    await Promise.allSettled(this.inFlight);
    await this.pool.destroy();
  }
}
