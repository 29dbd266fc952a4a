/** Worker thread of SqliteReadThread: runs batches of read statements on its own read-only connection. */
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import type { ReadAnswer, ReadBatch, ReadOutcome } from './read-thread.js';

const { file } = workerData as { file: string };
const db = new Database(file, { readonly: true });
db.pragma('busy_timeout = 10000');
db.pragma('mmap_size = 2147418112');
db.pragma('cache_size = -65536');
const statements = new Map<string, Database.Statement>();

function statement(sql: string): Database.Statement {
  let s = statements.get(sql);
  if (s === undefined) {
    s = db.prepare(sql);
    statements.set(sql, s);
  }
  return s;
}

/** The ArrayBuffer of a blob that owns all of it (moved, not copied); other blobs are copied by postMessage. */
function collectOwned(value: unknown, into: Set<ArrayBuffer>): void {
  if (value === null || typeof value !== 'object') return;
  for (const v of Object.values(value)) {
    if (v instanceof Uint8Array && v.byteOffset === 0 && v.buffer.byteLength === v.byteLength && v.buffer instanceof ArrayBuffer) into.add(v.buffer);
  }
}

parentPort!.on('message', (batch: ReadBatch) => {
  const owned = new Set<ArrayBuffer>();
  const outcomes = batch.reads.map((read): ReadOutcome => {
    try {
      const value: unknown = statement(read.sql).get(...read.params);
      collectOwned(value, owned);
      return { ok: true, value };
    } catch (err) {
      const e = err as { message?: string; code?: string };
      return { ok: false, message: e.message ?? String(err), code: e.code };
    }
  });
  parentPort!.postMessage({ id: batch.id, outcomes } satisfies ReadAnswer, [...owned]);
});
