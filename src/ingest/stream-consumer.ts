/**
 * The stream consumer: a durable JetStream pull consumer whose messages each carry one import
 * envelope. A batch of messages is prepared like import lines, committed in one transaction, and
 * only then acknowledged; an invalid envelope is published to the dead-letter subject with its
 * reject reason, then acknowledged. Redeliveries (after a crash between commit and ack) are
 * harmless: the same bytes again are `unchanged`, an older version `stale`.
 */
import { AckPolicy, connect, headers, nanos, type Consumer, type ConsumerMessages, type JsMsg, type NatsConnection } from 'nats';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { Store, Upsert, WriteOutcome } from '../store/store.js';
import type { LineIssue } from './envelope.js';
import { processLine } from './process-line.js';

/** Where the consumer reads from and how much it takes at once. */
export interface StreamConsumerOptions {
  url: string;
  stream: string;
  subject: string;
  durable: string;
  deadLetterSubject: string;
  /** Messages committed in one transaction. */
  batch: number;
  /** Milliseconds a delivered message may stay unacknowledged before it is delivered again. */
  ackWaitMs: number;
  /** zlib level of the stored gzip pieces; null stores none. */
  gzipLevel: number | null;
  /** Registry the consumer's instruments are added to (lag, throughput). */
  registry?: Registry;
  /** Told about batches that failed and will be redelivered, and about the dead letters sent. */
  log?: (level: 'info' | 'warn' | 'error', message: string, fields?: Record<string, unknown>) => void;
}

/** Header names of a dead letter. */
export const DEAD_LETTER_HEADERS = {
  /** The issues, as a JSON array of {path, message}, cut to 4 KiB. */
  issues: 'Crs-Reject-Issues',
  /** The first issue's message, and its JSON Pointer into the envelope. */
  message: 'Crs-Reject-Message',
  pointer: 'Crs-Reject-Pointer',
  /** Where the message came from: its subject and stream sequence. */
  subject: 'Crs-Original-Subject',
  sequence: 'Crs-Original-Sequence',
} as const;

/** Counts of one consumer: what its batches stored, and what it sent to the dead-letter subject. */
export interface ConsumeCounts extends Record<WriteOutcome | 'rejected', number> {
  batches: number;
}

interface Instruments {
  messages: Counter<'outcome'>;
  pending: Gauge;
  ackPending: Gauge;
  batchDuration: Histogram;
}

function instruments(registry: Registry | undefined): Instruments | undefined {
  if (registry === undefined) return undefined;
  const registers = [registry];
  return {
    messages: new Counter({ name: 'crs_consume_messages_total', help: 'stream messages committed, by outcome (stored, unchanged, stale, rejected: sent to the dead-letter subject)', labelNames: ['outcome'], registers }),
    pending: new Gauge({ name: 'crs_consume_pending_messages', help: 'messages of the subject in the stream not yet delivered to the durable consumer (its lag)', registers }),
    ackPending: new Gauge({ name: 'crs_consume_ack_pending_messages', help: 'messages delivered to the durable consumer and not yet acknowledged', registers }),
    batchDuration: new Histogram({
      name: 'crs_consume_batch_duration_seconds',
      help: 'from a batch taken to its messages acknowledged (prepare, commit, dead letters, acks)',
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
  };
}

/** A running consumer; `stop` lets the batch in hand finish, hands the rest back and closes the connection. */
export class StreamConsumer {
  readonly counts: ConsumeCounts = { stored: 0, unchanged: 0, stale: 0, rejected: 0, batches: 0 };
  private stopping = false;
  private wake: (() => void) | undefined;
  private readonly queue: JsMsg[] = [];
  private readonly done: Promise<void>;
  private lastLag = 0;
  private pumpEnded = false;

  private constructor(
    private readonly store: Store,
    private readonly nc: NatsConnection,
    private readonly consumer: Consumer,
    private readonly messages: ConsumerMessages,
    private readonly options: StreamConsumerOptions,
    private readonly metrics: Instruments | undefined,
  ) {
    const pump = (async () => {
      try {
        for await (const m of messages) {
          this.queue.push(m);
          this.wake?.();
        }
      } finally {
        // The subscription ended (the connection closed, the consumer was deleted): what is queued is still committed.
        this.pumpEnded = true;
        this.wake?.();
      }
    })();
    this.done = this.run().finally(async () => {
      messages.stop();
      await pump.catch(() => undefined);
      // Taken but not committed: handed back at once rather than after the ack wait.
      for (const m of this.queue.splice(0)) m.nak();
      await nc.drain();
    });
  }

  /** Connects, creates the durable consumer when it does not exist yet, and starts consuming. */
  static async start(store: Store, options: StreamConsumerOptions): Promise<StreamConsumer> {
    const nc = await connect({ servers: options.url, name: 'compliance-read consume' });
    try {
      const jsm = await nc.jetstreamManager();
      const config = {
        durable_name: options.durable,
        ack_policy: AckPolicy.Explicit,
        filter_subject: options.subject,
        // Longer than any batch's commit; a message unacknowledged past it is delivered again.
        ack_wait: nanos(options.ackWaitMs),
        // Bounds what is delivered ahead of the commits, across every consuming process.
        max_ack_pending: Math.max(1000, options.batch * 4),
      };
      const exists = await jsm.consumers.info(options.stream, options.durable).then(
        () => true,
        (err: Error) => {
          if (!/consumer not found/i.test(err.message)) throw err;
          return false;
        },
      );
      // Two processes starting at once may both add it: the same configuration is no error.
      if (!exists) await jsm.consumers.add(options.stream, config);
      else await jsm.consumers.update(options.stream, options.durable, { ack_wait: config.ack_wait, max_ack_pending: config.max_ack_pending });
      const consumer = await nc.jetstream().consumers.get(options.stream, options.durable);
      const messages = await consumer.consume({ max_messages: options.batch * 2 });
      return new StreamConsumer(store, nc, consumer, messages, options, instruments(options.registry));
    } catch (err) {
      await nc.close();
      throw err;
    }
  }

  /** Resolves once the consumer has stopped (after `stop`, or when the connection ends). */
  finished(): Promise<void> {
    return this.done;
  }

  /** Lets the batch in hand commit and be acknowledged, then closes; messages taken beyond it are handed back. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wake?.();
    await this.done;
  }

  private async run(): Promise<void> {
    while (!this.stopping && !this.nc.isClosed() && !(this.pumpEnded && this.queue.length === 0)) {
      if (this.queue.length === 0) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 500);
          this.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        this.wake = undefined;
        await this.refreshLag();
        continue;
      }
      const batch = this.queue.splice(0, this.options.batch);
      try {
        await this.handle(batch);
      } catch (err) {
        this.options.log?.('error', 'a batch could not be committed; its messages will be delivered again', { err, messages: batch.length });
        for (const m of batch) m.nak(1000);
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
  }

  /** Prepares, commits, dead-letters and acknowledges one batch, in that order. */
  private async handle(batch: JsMsg[]): Promise<void> {
    const started = process.hrtime.bigint();
    const upserts: Upsert[] = [];
    const dead: { m: JsMsg; issues: LineIssue[] }[] = [];
    for (const m of batch) {
      const result = processLine(Buffer.from(m.data.buffer, m.data.byteOffset, m.data.byteLength), this.options.gzipLevel);
      if (result.kind === 'reject') dead.push({ m, issues: result.issues });
      else upserts.push(result.upsert);
    }
    const outcomes = upserts.length === 0 ? [] : await this.store.writeBatch(upserts);
    for (const d of dead) this.nc.publish(this.options.deadLetterSubject, d.m.data, { headers: deadLetterHeaders(d.m, d.issues) });
    // The dead letters reach the server before their messages are acknowledged.
    if (dead.length > 0) await this.nc.flush();
    // One round trip for the batch's acks rather than one each: a lost ack only means a harmless redelivery.
    for (const m of batch) m.ack();
    await this.nc.flush();
    for (const o of outcomes) {
      this.counts[o]++;
      this.metrics?.messages.inc({ outcome: o });
    }
    this.counts.rejected += dead.length;
    if (dead.length > 0) {
      this.metrics?.messages.inc({ outcome: 'rejected' }, dead.length);
      this.options.log?.('warn', 'invalid envelopes sent to the dead-letter subject', { count: dead.length, subject: this.options.deadLetterSubject });
    }
    this.counts.batches++;
    this.metrics?.batchDuration.observe(Number(process.hrtime.bigint() - started) / 1e9);
    await this.refreshLag();
  }

  /** The consumer's lag, from the server at most twice a second. */
  private async refreshLag(): Promise<void> {
    if (this.metrics === undefined || Date.now() - this.lastLag < 500) return;
    this.lastLag = Date.now();
    try {
      const info = await this.consumer.info();
      this.metrics.pending.set(info.num_pending);
      this.metrics.ackPending.set(info.num_ack_pending);
    } catch {
      // A missed reading: the gauge keeps its last value until the next one.
    }
  }
}

function deadLetterHeaders(m: JsMsg, issues: readonly LineIssue[]): ReturnType<typeof headers> {
  const h = headers();
  // Header values are one line of text: JSON.stringify escapes every control character.
  const oneLine = (s: string, max: number): string => {
    const text = JSON.stringify(s).slice(1, -1);
    return text.length <= max ? text : `${text.slice(0, max)}…`;
  };
  const all = JSON.stringify(issues.slice(0, 20));
  h.set(DEAD_LETTER_HEADERS.issues, all.length <= 4096 ? all : JSON.stringify(issues.slice(0, 1)).slice(0, 4096));
  h.set(DEAD_LETTER_HEADERS.message, oneLine(issues[0]?.message ?? '', 1024));
  h.set(DEAD_LETTER_HEADERS.pointer, oneLine(issues[0]?.path ?? '', 1024));
  h.set(DEAD_LETTER_HEADERS.subject, m.subject);
  h.set(DEAD_LETTER_HEADERS.sequence, String(m.seq));
  return h;
}
