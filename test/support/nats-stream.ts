/** A throwaway JetStream stream on the test NATS (TEST_NATS_URL, default nats://127.0.0.1:4222) for consumer tests. */
import { randomBytes } from 'node:crypto';
import { connect, headers as natsHeaders, type JsMsg, type NatsConnection } from 'nats';

export const TEST_NATS_URL = process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222';

/** A stream of its own (records and dead letters on subjects of their own), and what the tests do with it. */
export interface TestStream {
  nc: NatsConnection;
  stream: string;
  subject: string;
  deadLetterSubject: string;
  durable: string;
  /** The settings a `consume` process needs to read it. */
  env: Record<string, string>;
  /** Publishes each line as one message, awaiting the stream's acknowledgement of each, `window` at a time. */
  publish(lines: readonly string[], window?: number): Promise<void>;
  /** The durable consumer's counts of messages not yet delivered and delivered but not acknowledged; undefined before it exists. */
  lag(): Promise<{ pending: number; ackPending: number; redelivered: number } | undefined>;
  /** The dead letters so far (kept by a second stream on the dead-letter subject). */
  deadLetters(): Promise<JsMsg[]>;
  close(): Promise<void>;
}

/** Creates a stream named after `tag` with a random suffix; `close` deletes it. */
export async function createTestStream(tag: string): Promise<TestStream> {
  const nc = await connect({ servers: TEST_NATS_URL });
  const jsm = await nc.jetstreamManager();
  const id = `${tag}_${randomBytes(4).toString('hex')}`.replace(/[^A-Za-z0-9_-]/g, '_');
  const stream = `T_${id}`;
  const subject = `t.${id}.records`;
  const deadLetterSubject = `t.${id}.dead`;
  const durable = `d_${id}`;
  await jsm.streams.add({ name: stream, subjects: [`${subject}.>`] });
  await jsm.streams.add({ name: `${stream}_DEAD`, subjects: [deadLetterSubject] });
  const js = nc.jetstream();
  return {
    nc,
    stream,
    subject,
    deadLetterSubject,
    durable,
    env: {
      NATS_URL: TEST_NATS_URL,
      NATS_STREAM: stream,
      NATS_SUBJECT: `${subject}.>`,
      NATS_DURABLE: durable,
      NATS_DEAD_LETTER_SUBJECT: deadLetterSubject,
    },
    async publish(lines, window = 500) {
      const h = natsHeaders();
      h.set('Content-Type', 'application/json');
      for (let i = 0; i < lines.length; i += window) {
        await Promise.all(lines.slice(i, i + window).map((line, j) => js.publish(`${subject}.${(i + j) % 8}`, Buffer.from(line), { headers: h })));
      }
    },
    async lag() {
      try {
        const info = await jsm.consumers.info(stream, durable);
        return { pending: info.num_pending, ackPending: info.num_ack_pending, redelivered: info.num_redelivered };
      } catch {
        return undefined;
      }
    },
    async deadLetters() {
      const info = await jsm.streams.info(`${stream}_DEAD`);
      const out: JsMsg[] = [];
      if (info.state.messages === 0) return out;
      const c = await js.consumers.get(`${stream}_DEAD`);
      const batch = await c.fetch({ max_messages: info.state.messages, expires: 2000 });
      for await (const m of batch) {
        out.push(m);
        if (out.length === info.state.messages) break;
      }
      return out;
    },
    async close() {
      await jsm.streams.delete(stream).catch(() => undefined);
      await jsm.streams.delete(`${stream}_DEAD`).catch(() => undefined);
      await nc.close();
    },
  };
}
