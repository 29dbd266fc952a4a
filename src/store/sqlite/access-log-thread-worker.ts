/**
 * Worker thread of the access log on SQLite: writes the batches the serving thread hands over and
 * prunes old ones, catches the per-record table up and checkpoints the file, all on its own connection.
 */
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import type { AccessLogBatch, AccessLogIndexFailure } from '../../access-log/access-log.js';
import { isStoreUnavailable } from '../store-errors.js';
import type { StoreError } from '../store-errors.js';
import { catchUpAccessLog, insertAccessLog, pruneAccessLog } from './access-log-rows.js';
import { sqliteStoreError } from './sqlite-errors.js';

/** A failure as it crosses to the store's thread. */
export interface PostedFailure {
  message: string;
  unavailable: boolean;
}

/** What the worker posts: a catch-up's failure, or the outcome of a job by its id. */
export type WorkerMessage = { indexFailure: PostedFailure & { batch?: { project: string; id: number } } } | { done: number; result?: unknown; failure?: PostedFailure };

/** A job the serving thread hands over: batches to write, or old batches to prune (see pruneAccessLog). */
export type LogJob = { write: readonly AccessLogBatch[] } | { prune: { before: string; max: number } };

/** A job, answered by its id. */
export interface JobRequest {
  id: number;
  job: LogJob;
}

const { file, everyMs } = workerData as { file: string; everyMs: number };
const db = new Database(file);
// This thread may wait for the write lock (an import in another process); the serving thread never does.
db.pragma('busy_timeout = 5000');
db.pragma('synchronous = NORMAL');
db.pragma('cache_size = -65536');

const failureOf = (err: StoreError): PostedFailure => ({ message: err.message, unavailable: isStoreUnavailable(err) });

const post = ({ err, batch }: AccessLogIndexFailure): void => {
  const message: WorkerMessage = { indexFailure: { ...failureOf(err), batch } };
  parentPort?.postMessage(message);
};

parentPort?.on('message', ({ id, job }: JobRequest) => {
  let answer: WorkerMessage;
  try {
    const result = 'write' in job ? insertAccessLog(db, job.write) : pruneAccessLog(db, job.prune.before, job.prune.max);
    answer = { done: id, result };
  } catch (err) {
    answer = { done: id, failure: failureOf(sqliteStoreError(err, 'write' in job ? 'access log write' : 'access log prune')) };
  }
  parentPort!.postMessage(answer);
});

setInterval(() => {
  try {
    catchUpAccessLog(db, post);
  } catch (err) {
    // The batches stay flagged (queries still find them) and the next round tries again.
    post({ err: sqliteStoreError(err, 'access log catch-up') });
  }
}, everyMs);
