/** Worker thread that catches the access log's per-record table up and checkpoints the file, off the thread serving reads. */
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import type { AccessLogIndexFailure } from '../../access-log/access-log.js';
import { isStoreUnavailable } from '../store-errors.js';
import { catchUpAccessLog } from './access-log-rows.js';
import { sqliteStoreError } from './sqlite-errors.js';

/** A failure as it crosses to the store's thread (see AccessLogIndexer). */
export interface PostedIndexFailure {
  message: string;
  unavailable: boolean;
  batch?: { project: string; id: number };
}

const { file, everyMs } = workerData as { file: string; everyMs: number };
const db = new Database(file);
// A background thread may wait for the write lock; the serving connection never does.
db.pragma('busy_timeout = 5000');
db.pragma('synchronous = NORMAL');
db.pragma('cache_size = -65536');

const post = ({ err, batch }: AccessLogIndexFailure): void => {
  const failure: PostedIndexFailure = { message: err.message, unavailable: isStoreUnavailable(err), batch };
  parentPort?.postMessage(failure);
};

setInterval(() => {
  try {
    catchUpAccessLog(db, post);
  } catch (err) {
    // The batches stay flagged (queries still find them) and the next round tries again.
    post({ err: sqliteStoreError(err, 'access log catch-up') });
  }
}, everyMs);
