/**
 * Errors a store adapter throws to its callers. Their messages never carry SQL text or
 * parameter values, so the HTTP layer may log them and map them to a status without leaking.
 */

/** A store operation failed for a reason other than reachability; the driver error is the `cause`. */
export class StoreError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreError';
  }
}

/**
 * The database cannot serve right now (down, unreachable, refusing connections, overloaded or
 * timed out): worth retrying later, and answered 503 by the HTTP layer.
 */
export class StoreUnavailableError extends StoreError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreUnavailableError';
  }
}

/** True for an error meaning "the store is unavailable", whatever adapter threw it. */
export function isStoreUnavailable(err: unknown): err is StoreUnavailableError {
  return err instanceof StoreUnavailableError;
}
