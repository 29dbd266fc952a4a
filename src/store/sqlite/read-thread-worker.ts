/** Worker thread of SqliteReadThread: runs batches of read statements on its own read-only connection. */
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { transferList } from '../../threads/owned-bytes.js';
import { SERVING_READ_PRAGMAS, type ReadAnswer, type ReadBatch, type ReadOutcome } from './read-thread.js';

const { file } = workerData as { file: string };
const db = new Database(file, { readonly: true });
db.pragma('busy_timeout = 10000');
for (const pragma of SERVING_READ_PRAGMAS) db.pragma(pragma);
const statements = new Map<string, Database.Statement>();

function statement(sql: string): Database.Statement {
  let s = statements.get(sql);
  if (s === undefined) {
    s = db.prepare(sql);
    statements.set(sql, s);
  }
  return s;
}

parentPort!.on('message', (batch: ReadBatch) => {
  const blobs: Uint8Array[] = [];
  const outcomes = batch.reads.map((read): ReadOutcome => {
    try {
      const s = statement(read.sql);
      const value: unknown = read.all === true ? s.all(...read.params) : s.get(...read.params);
      for (const row of read.all === true ? (value as object[]) : value === undefined ? [] : [value as object]) {
        for (const v of Object.values(row)) if (v instanceof Uint8Array) blobs.push(v);
      }
      return { ok: true, value };
    } catch (err) {
      const e = err as { message?: string; code?: string };
      return { ok: false, message: e.message ?? String(err), code: e.code };
    }
  });
  // Blobs that own their memory are moved, not copied (see transferList).
  parentPort!.postMessage({ id: batch.id, outcomes } satisfies ReadAnswer, transferList(blobs));
});
