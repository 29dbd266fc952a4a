/** Worker thread that catches the access log's per-record table up and checkpoints the file, off the thread serving reads. */
import { workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { catchUpAccessLog } from './access-log-rows.js';

const { file, everyMs } = workerData as { file: string; everyMs: number };
const db = new Database(file);
// A background thread may wait for the write lock; the serving connection never does.
db.pragma('busy_timeout = 5000');
db.pragma('synchronous = NORMAL');
db.pragma('cache_size = -65536');

setInterval(() => {
  try {
    catchUpAccessLog(db);
  } catch {
    // Busy or full: the batches stay flagged (queries still find them) and the next round tries again.
  }
}, everyMs);
