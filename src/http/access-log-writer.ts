/**
 * Writes access log entries in batches, off the request path: a read only appends to a buffer;
 * a timer (or a full buffer) hands the batch to the store in one statement.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { AccessLogEntry, AccessLogStore } from '../store/access-log.js';

/** Batching of the access log. */
export interface AccessLogWriterOptions {
  /** Longest an entry waits before it is written (default 250 ms). */
  flushMs?: number;
  /** Entries per write (default 500). */
  batch?: number;
  /** Entries kept while the store cannot take them; past this the oldest are dropped and counted (default 100,000). */
  maxBuffered?: number;
}

/** The batching writer of the access log. */
export class AccessLogWriter {
  private buffer: AccessLogEntry[] = [];
  /** How many entries at the front of the buffer are being written right now. */
  private inFlight = 0;
  /** The drain under way, if any: there is never more than one, however many entries arrive. */
  private draining: Promise<void> | undefined;
  private readonly timer: NodeJS.Timeout;
  /** A write failed: the next attempt waits for the timer instead of coming with the next request. */
  private backingOff = false;
  /** Entries dropped because the store was unreachable for too long. */
  dropped = 0;

  constructor(
    private readonly store: AccessLogStore,
    private readonly log: FastifyBaseLogger | undefined,
    private readonly options: AccessLogWriterOptions = {},
  ) {
    this.timer = setInterval(() => {
      this.backingOff = false;
      void this.flush();
    }, options.flushMs ?? 250);
    this.timer.unref();
  }

  /** Queues one entry. */
  append(entry: AccessLogEntry): void {
    this.buffer.push(entry);
    const max = this.options.maxBuffered ?? 100_000;
    if (this.buffer.length > max) {
      // The oldest entries not already on their way to the store make room.
      const over = Math.min(this.buffer.length - max, this.buffer.length - this.inFlight);
      this.dropped += over;
      this.buffer.splice(this.inFlight, over);
    }
    if (this.draining === undefined && !this.backingOff && this.buffer.length >= this.batchSize) void this.drainOnce(false);
  }

  /** Writes what is queued, in order; joins the drain already under way rather than starting another. */
  async flush(): Promise<void> {
    // A drain of full batches only may be under way: once it ends, the tail still has to go.
    while (this.draining !== undefined) await this.draining;
    if (this.buffer.length > 0) await this.drainOnce(true);
  }

  private drainOnce(tail: boolean): Promise<void> {
    this.draining ??= this.drain(tail).finally(() => (this.draining = undefined));
    return this.draining;
  }

  private get batchSize(): number {
    return this.options.batch ?? 500;
  }

  /** Stops the timer and writes everything still queued. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
    // Entries that arrived while the last drain finished its final batch.
    if (this.buffer.length > 0) await this.flush();
  }

  /** Entries waiting to be written. */
  get pending(): number {
    return this.buffer.length;
  }

  /**
   * Writes full batches while there are any, and with `tail` everything queued when it started.
   * Entries arriving during a write wait for a full batch or the timer: written at once, a busy
   * service's batches would shrink to the few entries each write's round trip lets through.
   */
  private async drain(tail: boolean): Promise<void> {
    const size = this.batchSize;
    let tailLeft = tail ? this.buffer.length : 0;
    while (this.buffer.length >= size || (tailLeft > 0 && this.buffer.length > 0)) {
      const batch = this.buffer.slice(0, size);
      this.inFlight = batch.length;
      try {
        await this.store.appendAccessLog(batch);
        this.buffer.splice(0, batch.length);
        tailLeft -= batch.length;
      } catch (err) {
        // Kept for the next round: the store may be back by then.
        this.backingOff = true;
        this.log?.error({ err, pending: this.buffer.length, dropped: this.dropped }, 'access log write failed; entries kept for retry');
        return;
      } finally {
        this.inFlight = 0;
      }
    }
  }
}
