/** Translation of SQLite failures into the store's own errors, naming the cause an operator can fix. */
import { StoreError, StoreUnavailableError } from '../store-errors.js';

/** SQLite result codes (and extended codes by prefix) that mean the file cannot be used now. */
const UNAVAILABLE: readonly [prefix: string, reason: string][] = [
  ['SQLITE_FULL', 'the disk holding the SQLite file is full'],
  ['SQLITE_READONLY', 'the SQLite file or its directory is read-only'],
  ['SQLITE_CANTOPEN', 'the SQLite file cannot be opened (missing directory or no permission)'],
  ['SQLITE_IOERR', 'the SQLite file could not be read or written (disk full, file size limit or I/O failure)'],
  ['SQLITE_BUSY', 'another process holds the SQLite file locked'],
  ['SQLITE_PERM', 'the SQLite file may not be accessed'],
  ['SQLITE_NOTADB', 'the file is not a SQLite database'],
  ['SQLITE_CORRUPT', 'the SQLite file is damaged'],
];

const CLOSED = /database connection is not open/;

/** Wraps a SQLite failure of `operation`: a StoreUnavailableError for a file it cannot use, else a StoreError. */
export function sqliteStoreError(err: unknown, operation: string): StoreError {
  if (err instanceof StoreError) return err;
  const code = (err as { code?: unknown } | null)?.code;
  const hit = typeof code === 'string' ? UNAVAILABLE.find(([prefix]) => code.startsWith(prefix)) : undefined;
  // better-sqlite3 refuses a statement on a closed connection (as at shutdown) with a plain TypeError.
  if (err instanceof TypeError && CLOSED.test(err.message)) return new StoreUnavailableError(`SQLite store ${operation} failed: the SQLite store is closed`, { cause: err });
  if (hit !== undefined) {
    return new StoreUnavailableError(`SQLite store ${operation} failed: ${hit[1]} (${String(code)}); nothing of the failed ${operation} was stored`, { cause: err });
  }
  // SQLite's messages name tables and constraints, never bound values.
  const reason = err instanceof Error ? err.message : String(err);
  return new StoreError(`SQLite store ${operation} failed (${typeof code === 'string' ? `${code}: ${reason}` : reason})`, { cause: err });
}

/** Runs `fn`, rethrowing any failure as a store error naming `operation`. */
export function guardedSync<T>(operation: string, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    throw sqliteStoreError(err, operation);
  }
}

/** Awaits `pending` (a read thread's answer), rethrowing its failure as guardedSync does. */
export async function guardedAnswer<T>(operation: string, pending: Promise<T>): Promise<T> {
  try {
    return await pending;
  } catch (err) {
    throw sqliteStoreError(err, operation);
  }
}
