/** Translation of node-postgres failures into the store's own errors, without SQL in the message. */
import { StoreError, StoreUnavailableError } from '../store-errors.js';

/** Socket-level codes Node reports when the server cannot be reached or drops the connection. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
]);

/**
 * SQLSTATEs meaning the server cannot serve now rather than that the request is wrong:
 * 08 connection exceptions, 28 / 3D000 a login the server refuses (misconfiguration, but
 * still nothing a caller can fix), 53 insufficient resources (too many connections, disk
 * full), 57P01..57P03 shutdown or starting up, 57014 statement timeout.
 */
const UNAVAILABLE_SQLSTATE = /^(08|28|53|57P0[1-3]$|57014$|3D000$)/;

/**
 * pg raises these as plain Errors, without a code, when the pool or socket gives up (or the pool
 * was ended, as at shutdown), or a query's client-side deadline passed (a connection that answers nothing).
 */
const UNAVAILABLE_MESSAGE =
  /Connection terminated|timeout exceeded when trying to connect|connection timeout|Client was closed|Connection ended|Cannot use a pool after calling end|Query read timeout|not queryable/i;

/** True when `err` says the PostgreSQL server is unreachable, down or overloaded. */
export function isConnectionFailure(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  // Node reports a refused dual-stack connect as an AggregateError of per-address failures.
  if (err instanceof AggregateError && err.errors.some(isConnectionFailure)) return true;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || UNAVAILABLE_SQLSTATE.test(code))) return true;
  return UNAVAILABLE_MESSAGE.test(err.message);
}

/** Wraps a pg failure of `operation` in a StoreUnavailableError or StoreError; store errors pass through. */
export function storeErrorFrom(err: unknown, operation: string): StoreError {
  if (err instanceof StoreError) return err;
  const code = (err as { code?: unknown } | null)?.code;
  const reason = typeof code === 'string' ? code : err instanceof Error ? err.message : String(err);
  if (isConnectionFailure(err)) {
    return new StoreUnavailableError(`PostgreSQL store unavailable during ${operation} (${reason})`, { cause: err });
  }
  // pg's primary message names the failing constraint or type, never the statement text.
  const detail = err instanceof Error && typeof code === 'string' ? `: ${err.message}` : '';
  return new StoreError(`PostgreSQL store ${operation} failed (${reason})${detail}`, { cause: err });
}

/** Runs `fn`, rethrowing any failure as a store error naming `operation`. */
export async function guarded<T>(operation: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw storeErrorFrom(err, operation);
  }
}
