/**
 * An outage of the store in the log: one error line when store calls start failing as unavailable,
 * one line when a call succeeds again, with how long it lasted and how many calls failed meanwhile.
 * The answers in between log one short line each (src/http/errors.ts), never a stack apiece.
 */
import type { Logger } from 'pino';
import { isStoreUnavailable } from '../store/store-errors.js';
import type { StoreObserver } from '../store/timed-store.js';

/**
 * Calls made in the background, whose callers retry them and say so themselves (the access log's
 * writer, its retention): a failure of theirs answers no request with 503.
 */
const BACKGROUND_CALLS: ReadonlySet<string> = new Set(['appendAccessLog', 'indexAccessLog', 'pruneAccessLog']);

export class StoreOutageLog {
  private since: number | undefined;
  private failed = 0;

  constructor(private readonly log: Pick<Logger, 'error' | 'warn'>) {}

  /** A store call failed: the first failure as unavailable opens the outage and is logged whole. */
  unavailable(err: unknown, operation: string): void {
    if (!isStoreUnavailable(err)) return;
    this.failed++;
    if (this.since !== undefined) return;
    this.since = Date.now();
    this.log.error({ err, operation }, 'store unavailable: answering 503 until it answers again');
  }

  /** A store call succeeded: an open outage ends. */
  answered(): void {
    if (this.since === undefined) return;
    this.log.warn({ unavailableMs: Date.now() - this.since, failedCalls: this.failed }, 'store available again');
    this.since = undefined;
    this.failed = 0;
  }

  /** Feeds this log from store call outcomes, beside another observer. */
  observing(next: StoreObserver): StoreObserver {
    return (operation, outcome, seconds, err) => {
      next(operation, outcome, seconds, err);
      if (BACKGROUND_CALLS.has(operation)) return;
      if (outcome === 'ok') this.answered();
      else this.unavailable(err, operation);
    };
  }
}
