/** A store's writes held back from another connection for a while, as another process writing would hold them. */
import { Worker } from 'node:worker_threads';
import pg from 'pg';
import { isPostgresUrl } from '../../src/store/open-store.js';

/** Writes of the store are held back now; `released` resolves once they may go on. */
export interface HeldWrites {
  released: Promise<void>;
}

/**
 * SQLite's write lock, taken by a connection on a thread of its own: this process's SQLite waits
 * for the lock synchronously, so a holder on the same thread could never let go of it.
 */
const SQLITE_HOLDER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require('better-sqlite3');
const db = new Database(workerData.file);
db.exec('BEGIN IMMEDIATE');
parentPort.postMessage('held');
setTimeout(() => {
  db.exec('COMMIT');
  db.close();
}, workerData.ms);
`;

/** Holds back writes of records to the store at `dbUrl` for `ms`; resolves once they are held. */
export async function holdWrites(dbUrl: string, ms: number): Promise<HeldWrites> {
  return isPostgresUrl(dbUrl) ? holdPostgresWrites(dbUrl, ms) : holdSqliteWrites(dbUrl, ms);
}

async function holdSqliteWrites(file: string, ms: number): Promise<HeldWrites> {
  const worker = new Worker(SQLITE_HOLDER, { eval: true, workerData: { file, ms } });
  const released = new Promise<void>((resolve, reject) => {
    worker.once('error', reject);
    worker.once('exit', () => resolve());
  });
  await Promise.race([new Promise((resolve) => worker.once('message', resolve)), released]);
  return { released };
}

/** The change feed's table locked against writers (readers still read it): every stored record writes its entry there. */
async function holdPostgresWrites(url: string, ms: number): Promise<HeldWrites> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('BEGIN');
    await client.query('LOCK TABLE changes IN EXCLUSIVE MODE');
  } catch (err) {
    await client.end();
    throw err;
  }
  const released = new Promise<void>((resolve) => setTimeout(resolve, ms)).then(async () => {
    await client.query('COMMIT');
    await client.end();
  });
  return { released };
}
