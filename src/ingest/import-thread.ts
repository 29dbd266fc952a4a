/**
 * An import on a thread of its own. Its V8 young generation is capped there, which the command
 * line's main thread cannot be once started: preparing records allocates fast, and an uncapped
 * young generation grows to its full size and stays resident for the whole import.
 */
import type { ResourceLimits } from 'node:worker_threads';
import { StoreError, StoreUnavailableError } from '../store/store-errors.js';
import { startWorker } from '../threads/start-worker.js';
import type { ImportOptions } from './importer.js';
import { ImportStopped, type ImportSummary, type InputPosition } from './import-summary.js';

/** What the import's thread opens and imports: plain data, as it crosses to the thread. */
export interface ThreadedImport {
  db: string;
  store: { poolSize: number; statementTimeoutMs: number };
  files: string[];
  options: Omit<ImportOptions, 'onProgress' | 'rejectsPath' | 'onReject'>;
}

/** What the thread tells: progress now and then, then one outcome. */
export type ImportThreadMessage =
  | { progress: [ImportSummary, InputPosition] }
  | { done: ImportSummary }
  | { stopped: { summary: ImportSummary; file: string; lineNo: number; maxRejects: number } }
  | { failed: { name: string; message: string } };

// The old generation keeps the process's limit: a line of many megabytes parses into several times its size.
const LIMITS: ResourceLimits = { maxYoungGenerationSizeMb: 6 };

/** The failure the thread reported, as the error the caller would have seen on its own thread. */
function errorOf(f: { name: string; message: string }): Error {
  if (f.name === 'StoreUnavailableError') return new StoreUnavailableError(f.message);
  if (f.name === 'StoreError') return new StoreError(f.message);
  return new Error(f.message);
}

/** Imports `job.files` into the store `job.db` on a thread of its own; standard input is passed on for `-`. */
export function importOnThread(job: ThreadedImport, onProgress?: (summary: ImportSummary, position: InputPosition) => void): Promise<ImportSummary> {
  return new Promise((resolve, reject) => {
    const readsStdin = job.files.includes('-');
    const worker = startWorker(import.meta.url, 'import-thread-worker', job, LIMITS, { stdin: readsStdin });
    if (readsStdin) process.stdin.pipe(worker.stdin!);
    let outcome = false;
    worker.on('message', (m: ImportThreadMessage) => {
      if ('progress' in m) {
        onProgress?.(...m.progress);
        return;
      }
      outcome = true;
      if ('done' in m) resolve(m.done);
      else if ('stopped' in m) reject(new ImportStopped(m.stopped.summary, m.stopped.file, m.stopped.lineNo, m.stopped.maxRejects));
      else reject(errorOf(m.failed));
    });
    worker.on('error', (err) => {
      outcome = true;
      reject(err);
    });
    worker.on('exit', (code) => {
      if (!outcome) reject(new Error(`the import's thread stopped without an outcome (exit code ${code})`));
    });
  });
}
