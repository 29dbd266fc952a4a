/**
 * An import in a child process of its own. The child starts with what a running process cannot be
 * given: glibc's mmap threshold fixed (malloc-threshold.ts) and V8's young generation capped, since
 * preparing records allocates fast and an uncapped young generation grows to its full size and stays
 * resident for the whole import. The command line's process holds none of the import's libraries.
 */
import type { StdioOptions } from 'node:child_process';
import { StoreError, StoreUnavailableError } from '../store/store-errors.js';
import { forkModule } from '../threads/fork-module.js';
import type { ImportOptions } from './importer.js';
import { ImportStopped, type ImportSummary, type InputPosition } from './import-summary.js';
import { withFixedThreshold } from './malloc-threshold.js';

/** What the import's process opens and imports: plain data, as it crosses to the process. */
export interface ChildImport {
  db: string;
  store: { poolSize: number; statementTimeoutMs: number };
  files: string[];
  options: Omit<ImportOptions, 'onProgress' | 'rejectsPath' | 'onReject'>;
}

/** What the import's process tells: progress now and then, then one outcome. */
export type ImportProcessMessage =
  | { progress: [ImportSummary, InputPosition] }
  | { done: ImportSummary }
  | { stopped: { summary: ImportSummary; file: string; lineNo: number; maxRejects: number } }
  | { failed: { name: string; message: string } };

// Young generation = 3 semi-spaces: 6 MB. The old generation keeps Node's limit: a line of many megabytes parses into several times its size.
const SEMI_SPACE_MB = 2;

/** Signals that end the command: they end the import's process first. */
const FORWARDED = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** The failure the process reported, as the error the caller would have seen in its own process. */
function errorOf(f: { name: string; message: string }): Error {
  if (f.name === 'StoreUnavailableError') return new StoreUnavailableError(f.message);
  if (f.name === 'StoreError') return new StoreError(f.message);
  return new Error(f.message);
}

/**
 * Imports `job.files` into the store `job.db` in a child process, which reads standard input itself
 * for `-`, and settles once that process has ended. A SIGINT, SIGTERM or SIGHUP sent to this process
 * is sent on to the child; when the child ends by it, this process ends by the same signal.
 */
export function importInProcess(job: ChildImport, onProgress?: (summary: ImportSummary, position: InputPosition) => void): Promise<ImportSummary> {
  return new Promise((resolve, reject) => {
    const stdio: StdioOptions = [job.files.includes('-') ? 'inherit' : 'ignore', 'inherit', 'inherit', 'ipc'];
    const child = forkModule(import.meta.url, 'import-process-child', { execArgv: [`--max-semi-space-size=${SEMI_SPACE_MB}`], env: withFixedThreshold(process.env), stdio });
    let outcome: { summary: ImportSummary } | { error: Error } | undefined;
    const forward = (signal: NodeJS.Signals): void => {
      child.kill(signal);
    };
    for (const s of FORWARDED) process.on(s, forward);
    const unlisten = (): void => {
      for (const s of FORWARDED) process.off(s, forward);
    };
    child.on('message', (m: ImportProcessMessage) => {
      if ('progress' in m) onProgress?.(...m.progress);
      else if ('done' in m) outcome = { summary: m.done };
      else if ('stopped' in m) outcome = { error: new ImportStopped(m.stopped.summary, m.stopped.file, m.stopped.lineNo, m.stopped.maxRejects) };
      else outcome = { error: errorOf(m.failed) };
    });
    child.once('error', (err) => {
      unlisten();
      reject(err);
    });
    child.once('exit', (code, signal) => {
      unlisten();
      if (outcome !== undefined) {
        if ('summary' in outcome) resolve(outcome.summary);
        else reject(outcome.error);
      } else if (signal !== null && (FORWARDED as readonly string[]).includes(signal)) {
        process.kill(process.pid, signal);
      } else {
        reject(new Error(`the import's process ended ${signal !== null ? `by ${signal}` : `with exit code ${code}`} before reporting an outcome`));
      }
    });
    child.send(job);
  });
}
