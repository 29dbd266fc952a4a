/**
 * Worker thread of the access log on SQLite: writes the batches the serving thread hands over,
 * catches the per-record table up and checkpoints the file, all on its own connection.
 */
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import type { AccessLogBatch, AccessLogIndexFailure } from '../../access-log/access-log.js';
import { isStoreUnavailable } from '../store-errors.js';
import { catchUpAccessLog, insertAccessLog } from './access-log-rows.js';
import { sqliteStoreError } from './sqlite-errors.js';

/** A failure as it crosses to the store's thread. */
export interface PostedFailure {
  message: string;
  unavailable: boolean;
}

/** What the worker posts: a catch-up's failure, or the outcome of a write by its id. */
export type WorkerMessage = { indexFailure: PostedFailure & { batch?: { project: string; id: number } } } | { written: number; failure?: PostedFailure };

/** A write of batches, answered by its id. */
export interface WriteRequest {
  id: number;
  batches: AccessLogBatch[];
}

const { file, everyMs } = workerData as { file: string; everyMs: number };
const db = new Database(file);
// This thread may wait for the write lock (an import in another process); the serving thread never does.
db.pragma('busy_timeout = 5000');
db.pragma('synchronous = NORMAL');
db.pragma('cache_size = -65536');

const posted = (err: unknown, operation: string): PostedFailure => {
  const e = sqliteStoreError(err, operation);
  return { message: e.message, unavailable: isStoreUnavailable(e) };
};

const post = ({ err, batch }: AccessLogIndexFailure): void => {
  const message: WorkerMessage = { indexFailure: { message: err.message, unavailable: isStoreUnavailable(err), batch } };
  parentPort?.postMessage(message);
};

parentPort?.on('message', ({ id, batches }: WriteRequest) => {
  let answer: WorkerMessage;
  try {
    insertAccessLog(db, batches);
    answer = { written: id };
  } catch (err) {
    answer = { written: id, failure: posted(err, 'access log write') };
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
