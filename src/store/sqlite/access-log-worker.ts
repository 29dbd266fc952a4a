/** Worker thread that appends access log rows through its own connection, off the thread serving reads. */
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import type { NewBatch } from '../access-log-batches.js';
import { indexAccessLog, insertAccessLog } from './access-log-rows.js';

/** The per-record table is caught up after this many bytes of entries (~50,000 of them), or this long after the last catch-up. */
const INDEX_EVERY_BYTES = 10_000_000;
const INDEX_EVERY_MS = 10_000;

const db = new Database((workerData as { file: string }).file);
db.pragma('busy_timeout = 10000');
db.pragma('synchronous = NORMAL');
db.pragma('cache_size = -65536');

let unindexed = 0;
let indexedAt = performance.now();

parentPort?.on('message', (msg: { id: number; batches: NewBatch[] }) => {
  try {
    insertAccessLog(db, msg.batches);
    parentPort!.postMessage({ id: msg.id });
  } catch (err) {
    parentPort!.postMessage({ id: msg.id, error: (err as Error).message });
    return;
  }
  for (const b of msg.batches) unindexed += b.entries.length;
  if (unindexed >= INDEX_EVERY_BYTES || performance.now() - indexedAt >= INDEX_EVERY_MS) {
    try {
      indexAccessLog(db);
      unindexed = 0;
      indexedAt = performance.now();
    } catch {
      // Busy or full: the batches stay flagged (queries still find them) and the next message tries again.
    }
  }
});
