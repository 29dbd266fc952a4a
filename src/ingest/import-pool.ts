/** The import's worker threads (a piscina pool): each chunk of lines comes back as a promise, awaited in order by the importer. */
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { Upsert } from '../store/store.js';
import { processLine, type LineResult } from './process-line.js';
import type { PrepareTask } from './prepare-worker.js';
import { asBuffer, transferList } from '../threads/owned-bytes.js';

/** Buffers arrive from a worker as plain Uint8Arrays; the store expects Buffers. */
function asBufferOrNull(u8: Uint8Array | null): Buffer | null {
  return u8 === null ? null : asBuffer(u8);
}

function revive(result: LineResult): LineResult {
  if (result.kind !== 'record') return result.line === undefined ? result : { ...result, line: asBuffer(result.line) };
  const u = result.upsert;
  const upsert = { ...u, body: asBuffer(u.body), deflated: asBufferOrNull(u.deflated) } as Upsert;
  if (upsert.kind === 'alert') {
    const s = upsert.listing.summary;
    upsert.listing = { ...upsert.listing, summary: { ...s, body: asBuffer(s.body), deflated: asBufferOrNull(s.deflated) } };
  }
  if (upsert.kind === 'customer' && upsert.company) {
    const s = upsert.company.summary;
    upsert.company = { ...upsert.company, summary: { ...s, body: asBuffer(s.body), deflated: asBufferOrNull(s.deflated) } };
  }
  return { ...result, upsert };
}

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

/** The workers of one import; the importer bounds how many chunks are in flight. */
export class ImportPool {
  private readonly pool: Piscina<PrepareTask, LineResult[]>;
  private readonly inFlight = new Set<Promise<LineResult[]>>();

  constructor(size: number) {
    // Two chunks per worker: the next one waits in the worker while the importer writes a batch.
    this.pool = new Piscina({ ...workerModule(), minThreads: size, maxThreads: size, concurrentTasksPerWorker: 2, resourceLimits: WORKER_LIMITS });
  }

  /**
   * Prepares a chunk of lines in a worker (owned lines are moved there, see transferList), those
   * over WORKER_LINE_BYTES here; the results come back in the lines' order.
   */
  prepare(lines: Buffer[], gzipLevel: number | null): Promise<LineResult[]> {
    const here = new Map<number, LineResult>();
    const sent: Buffer[] = [];
    lines.forEach((line, i) => {
      if (line.length > WORKER_LINE_BYTES) here.set(i, processLine(line, gzipLevel));
      else sent.push(line);
    });
    // Lines that own their memory are moved, not copied: the caller must not read them again
    // (a reject comes back with its line).
    const prepared = sent.length === 0 ? Promise.resolve([]) : this.pool.run({ lines: sent, gzipLevel } satisfies PrepareTask, { transferList: transferList(sent) });
    const results = prepared.then((r) => (here.size === 0 ? r.map(revive) : inOrder(lines.length, here, r.map(revive))));
    this.inFlight.add(results);
    const settled = (): boolean => this.inFlight.delete(results);
    results.then(settled, settled);
    return results;
  }

  /** Stops the workers once the chunks still in flight (an import that stopped drops them) are done. */
  async close(): Promise<void> {
    // Destroying the pool under a running chunk fails its promise, or piscina on the late answer.
    await Promise.allSettled(this.inFlight);
    await this.pool.destroy();
  }
}
