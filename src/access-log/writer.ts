/**
 * Writes access log entries in batches, off the request path: a read only encodes its entry into
 * the filling chunk (see AccessLogChunk); a timer (or a full chunk) hands it to the store in one statement.
 */
import type { BaseLogger } from 'pino';
import type { AccessLogEntry, AccessLogStore } from './access-log.js';
import { AccessLogChunk } from './chunk.js';

/** Batching of the access log. */
export interface AccessLogWriterOptions {
  /** Longest an entry waits before it is written (default 250 ms). */
  flushMs?: number;
  /** Entries per write (default 2,000). */
  batch?: number;
  /** Entries kept while the store cannot take them; past this the oldest waiting writes are dropped and counted (default 100,000). */
  maxBuffered?: number;
  /** Encoded bytes per write: a write closes at `batch` entries or at this many bytes, whichever comes first (default 8 MiB). */
  batchBytes?: number;
  /** Encoded bytes kept while the store cannot take them, as `maxBuffered` (default 256 MiB): list answers' entries are large. */
  maxBufferedBytes?: number;
  /** How often the counts of summarized answers are written, one entry per key and address (default 10 s). */
  summaryMs?: number;
  /** How long writes may fail quietly before one error line says so (default FAILING_LOUD_MS); a dropped entry says so at once. */
  failingLoudMs?: number;
}

/** Key-and-address groups counted at once; past this, further addresses share one group whose client is '*'. */
const MAX_SUMMARY_GROUPS = 10_000;

/**
 * Counts of answers refused for a spent budget (429), per project, key and client address: a
 * flood of them is written as one entry per group per interval, not one per answer.
 */
class RefusalSummary {
  private groups = new Map<string, AccessLogEntry>();
  private startedAt = 0;

  /** Counts one answer into its group. */
  add(e: AccessLogEntry, now: number): void {
    if (this.groups.size === 0) this.startedAt = now;
    let group = `${e.project}\n${e.keyId ?? ''}\n${e.client}`;
    let client = e.client;
    if (!this.groups.has(group) && this.groups.size >= MAX_SUMMARY_GROUPS) {
      group = '\n\n*';
      client = '*';
    }
    const g = this.groups.get(group);
    if (g === undefined) {
      this.groups.set(group, { ...e, client, recordId: null, requestId: '', count: 1 });
      return;
    }
    g.count! += 1;
    if (g.route !== e.route) g.route = '*';
  }

  /** The summary entries once `intervalMs` has passed since the first count (all of them with `now` undefined), and starts afresh. */
  take(intervalMs: number, now?: number): AccessLogEntry[] {
    if (this.groups.size === 0 || (now !== undefined && now - this.startedAt < intervalMs)) return [];
    const out = [...this.groups.values()];
    this.groups = new Map();
    return out;
  }
}

/** How long writes may keep failing before the log says so at error level. */
export const FAILING_LOUD_MS = 30_000;

/** The batching writer of the access log. */
export class AccessLogWriter {
  /** Writes waiting in order; the last one is still filling. */
  private readonly chunks: AccessLogChunk[] = [new AccessLogChunk()];
  /** The first chunk is being written right now. */
  private inFlight = false;
  /** Entries queued, in every chunk. */
  private queued = 0;
  /** The drain under way, if any: there is never more than one, however many entries arrive. */
  private draining: Promise<void> | undefined;
  private readonly timer: NodeJS.Timeout;
  /** A write failed: the next attempt waits for the timer instead of coming with the next request. */
  private backingOff = false;
  /** Entries dropped because the store was unreachable for too long. */
  dropped = 0;
  private readonly batchSize: number;
  private readonly maxBuffered: number;
  private readonly batchBytes: number;
  private readonly maxBufferedBytes: number;
  /** Encoded bytes of the full chunks queued (the filling one not counted). */
  private queuedBytes = 0;
  private readonly summary = new RefusalSummary();
  private readonly summaryMs: number;
  /** Answers counted into summary entries rather than written one by one. */
  summarized = 0;

  constructor(
    private readonly store: AccessLogStore,
    private readonly log: Pick<BaseLogger, 'error' | 'warn'> | undefined,
    options: AccessLogWriterOptions = {},
  ) {
    this.maxBuffered = options.maxBuffered ?? 100_000;
    this.batchSize = Math.min(options.batch ?? 2000, this.maxBuffered);
    this.maxBufferedBytes = options.maxBufferedBytes ?? 256 * 1024 * 1024;
    this.batchBytes = Math.min(options.batchBytes ?? 8 * 1024 * 1024, this.maxBufferedBytes);
    this.summaryMs = options.summaryMs ?? 10_000;
    this.failingLoudMs = options.failingLoudMs ?? FAILING_LOUD_MS;
    this.timer = setInterval(() => {
      this.backingOff = false;
      for (const e of this.summary.take(this.summaryMs, performance.now())) this.append(e);
      void this.flush();
    }, options.flushMs ?? 250);
    this.timer.unref();
  }

  /** Queues one entry. */
  append(entry: AccessLogEntry): void {
    const open = this.chunks[this.chunks.length - 1]!;
    open.add(entry);
    this.queued++;
    if (open.count < this.batchSize && open.bytes < this.batchBytes) return;
    this.chunks.push(new AccessLogChunk());
    this.queuedBytes += open.bytes;
    // The oldest full writes not already on their way to the store make room.
    const first = this.inFlight ? 1 : 0;
    while ((this.queued > this.maxBuffered || this.queuedBytes > this.maxBufferedBytes) && this.chunks.length - 1 > first) {
      const [gone] = this.chunks.splice(first, 1);
      this.dropped += gone!.count;
      this.queued -= gone!.count;
      this.queuedBytes -= gone!.bytes;
    }
    if (this.draining === undefined && !this.backingOff) void this.drainOnce(false);
  }

  /**
   * Counts an answer refused for a spent budget instead of queuing it: one entry per project, key
   * and address per summary interval stands for all of them (with their `count`).
   */
  summarize(entry: AccessLogEntry): void {
    this.summarized++;
    this.summary.add(entry, performance.now());
  }

  /** Writes what is queued, in order; joins the drain already under way rather than starting another. */
  async flush(): Promise<void> {
    // A drain of full batches only may be under way: once it ends, the tail still has to go.
    while (this.draining !== undefined) await this.draining;
    if (this.queued > 0) await this.drainOnce(true);
  }

  private drainOnce(tail: boolean): Promise<void> {
    this.draining ??= this.drain(tail).finally(() => (this.draining = undefined));
    return this.draining;
  }

  /** Stops the timer and writes everything still queued. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    for (const e of this.summary.take(this.summaryMs)) this.append(e);
    await this.flush();
    // Entries that arrived while the last drain finished its final batch.
    if (this.queued > 0) await this.flush();
  }

  /** Entries waiting to be written. */
  get pending(): number {
    return this.queued;
  }

  /**
   * Writes full batches while there are any, then with `tail` the filling one. Entries arriving
   * during a write wait for a full batch or the timer: written at once, a busy service's batches
   * would shrink to the few entries each write's round trip lets through. The filling batch is
   * closed only once the ones before it are written, so a store that stays down collects full
   * batches, not one small batch per timer tick.
   */
  private async drain(tail: boolean): Promise<void> {
    for (;;) {
      if (this.chunks.length === 1) {
        if (!tail || this.chunks[0]!.count === 0) return;
        this.queuedBytes += this.chunks[0]!.bytes;
        this.chunks.push(new AccessLogChunk());
        tail = false;
      }
      const chunk = this.chunks[0]!;
      this.inFlight = true;
      try {
        await this.store.appendAccessLog(chunk.batches());
        this.wroteAgain();
        this.chunks.shift();
        this.queued -= chunk.count;
        this.queuedBytes -= chunk.bytes;
      } catch (err) {
        // Kept for the next round: the store may be back by then.
        this.backingOff = true;
        this.failedWrite(err);
        return;
      } finally {
        this.inFlight = false;
      }
    }
  }

  /**
   * A failed write is retried quietly while failures last under `failingLoudMs` and nothing was
   * dropped (a lock held a moment by the store's own catch-up, a short outage); past that, one
   * error line, and one more when writes resume.
   */
  private failedWrite(err: unknown): void {
    const now = Date.now();
    if (this.failingSince === undefined) {
      this.failingSince = now;
      this.droppedBefore = this.dropped;
    }
    this.failedWrites++;
    if (this.loud || (now - this.failingSince < this.failingLoudMs && this.dropped === this.droppedBefore)) return;
    this.loud = true;
    this.log?.error({ err, pending: this.queued, dropped: this.dropped, failingMs: now - this.failingSince, failedWrites: this.failedWrites }, 'access log write failed; entries kept for retry');
  }

  private wroteAgain(): void {
    if (this.failingSince === undefined) return;
    if (this.loud) this.log?.warn({ failingMs: Date.now() - this.failingSince, failedWrites: this.failedWrites, dropped: this.dropped }, 'access log writes resumed');
    this.failingSince = undefined;
    this.failedWrites = 0;
    this.loud = false;
  }

  private failingSince: number | undefined;
  private failedWrites = 0;
  private droppedBefore = 0;
  private loud = false;
  private readonly failingLoudMs: number;
}
