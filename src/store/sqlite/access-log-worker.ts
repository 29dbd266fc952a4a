/** Worker thread that appends access log rows through its own connection, off the thread serving reads. */
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import type { AccessLogEntry } from '../access-log.js';
import { insertAccessLog } from './access-log-rows.js';

const db = new Database((workerData as { file: string }).file);
db.pragma('busy_timeout = 10000');
db.pragma('synchronous = NORMAL');

parentPort?.on('message', (msg: { id: number; entries: AccessLogEntry[] }) => {
  try {
    insertAccessLog(db, msg.entries);
    parentPort!.postMessage({ id: msg.id });
  } catch (err) {
    parentPort!.postMessage({ id: msg.id, error: (err as Error).message });
  }
});
