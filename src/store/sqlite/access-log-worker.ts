/** Worker thread that appends access log rows through its own connection, off the thread serving reads. */
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import type { AccessLogEntry } from '../access-log.js';
import { indexAccessLog, insertAccessLog } from './access-log-rows.js';

/** The per-record index is caught up after this many rows, or this long after the last catch-up. */
const INDEX_EVERY_ROWS = 50_000;
const INDEX_EVERY_MS = 10_000;

const db = new Database((workerData as { file: string }).file);
db.pragma('busy_timeout = 10000');
db.pragma('synchronous = NORMAL');
db.pragma('cache_size = -65536');

let unindexed = 0;
let indexedAt = performance.now();

parentPort?.on('message', (msg: { id: number; json: string }) => {
  let entries: AccessLogEntry[];
  try {
    entries = JSON.parse(msg.json) as AccessLogEntry[];
    insertAccessLog(db, entries);
    parentPort!.postMessage({ id: msg.id });
  } catch (err) {
    parentPort!.postMessage({ id: msg.id, error: (err as Error).message });
    return;
  }
  unindexed += entries.length;
  if (unindexed >= INDEX_EVERY_ROWS || performance.now() - indexedAt >= INDEX_EVERY_MS) {
    try {
      indexAccessLog(db);
      unindexed = 0;
      indexedAt = performance.now();
    } catch {
      // Busy or full: the rows stay in the scanned tail and the next batch tries again.
    }
  }
});
