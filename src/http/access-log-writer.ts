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
  private writing: Promise<void> = Promise.resolve();
  private readonly timer: NodeJS.Timeout;
  /** Entries dropped because the store was unreachable for too long. */
  dropped = 0;

  constructor(
    private readonly store: AccessLogStore,
    private readonly log: FastifyBaseLogger | undefined,
    private readonly options: AccessLogWriterOptions = {},
  ) {
    this.timer = setInterval(() => void this.flush(), options.flushMs ?? 250);
    this.timer.unref();
  }

  /** Queues one entry. */
  append(entry: AccessLogEntry): void {
    this.buffer.push(entry);
    const max = this.options.maxBuffered ?? 100_000;
    if (this.buffer.length > max) {
      this.dropped += this.buffer.length - max;
      this.buffer.splice(0, this.buffer.length - max);
    }
    if (this.buffer.length >= (this.options.batch ?? 500)) void this.flush();
  }

  /** Writes what is queued; one write at a time, in order. */
  flush(): Promise<void> {
    this.writing = this.writing.then(async () => {
      const size = this.options.batch ?? 500;
      while (this.buffer.length > 0) {
        const batch = this.buffer.slice(0, size);
        try {
          await this.store.appendAccessLog(batch);
          this.buffer.splice(0, batch.length);
        } catch (err) {
          // Kept for the next round: the store may be back by then.
          this.log?.error({ err, pending: this.buffer.length }, 'access log write failed; entries kept for retry');
          return;
        }
      }
    });
    return this.writing;
  }

  /** Stops the timer and writes everything still queued. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
