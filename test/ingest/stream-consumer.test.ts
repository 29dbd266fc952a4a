/**
 * `compliance-read consume` against the real NATS JetStream, on the project's store: envelopes in
 * several versions, published out of order while the consumer is killed with SIGKILL and restarted
 * three times, end up stored once each at their newest version; invalid envelopes go to the
 * dead-letter subject with their reason; SIGTERM drains and exits 0. CRS_INGEST_RECORDS sets the
 * number of envelopes (`npm run test:ingest-soak`: 100,000); the seed is printed, CRS_KILL_SEED replays it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEAD_LETTER_HEADERS } from '../../src/ingest/stream-consumer.js';
import type { Store } from '../../src/store/store.js';
import { freePort } from '../support/cli-process.js';
import { seeded, versionedEnvelopes, versionProblems } from '../support/ingest-records.js';
import { createTestStream, type TestStream } from '../support/nats-stream.js';
import { openTestStore, type TestStore } from '../support/store-harness.js';
import { until } from '../support/until.js';

const CLI = ['--import', 'tsx', join(import.meta.dirname, '..', '..', 'src', 'cli', 'main.ts')];
const RECORDS = Number(process.env.CRS_INGEST_RECORDS ?? 5000);
const SEED = Number(process.env.CRS_KILL_SEED ?? Date.now() % 1_000_000);
const P = 'consume-faults';
const POISON = ['this is no JSON', JSON.stringify({ kind: 'customer', record: { id: '5e1e0000-3d1f-4a6b-9c8d-7e6f5a4b3c2d', cmsProjectId: P, type: 'Company', status: 'Sleeping' } }), '{"kind":"invoice","record":{}}'];

let stream: TestStream;
let db: TestStore;
let store: Store;
const children: ChildProcess[] = [];

beforeAll(async () => {
  stream = await createTestStream('consume');
  db = await openTestStore(mkdtempSync(join(tmpdir(), 'crs-consume-')));
  store = db.store;
});
afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await stream?.close();
  await store?.close();
  await db?.cleanup();
});

interface Consumer {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function startConsumer(extra: Record<string, string> = {}): Consumer {
  const child = spawn(process.execPath, [...CLI, 'consume', '--db', db.url], {
    env: { ...process.env, ...stream.env, NATS_BATCH: '200', NATS_ACK_WAIT_MS: '2000', LOG_LEVEL: 'info', ...extra },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => out, exited };
}



describe('consume from JetStream', () => {
  it(
    `stores ${RECORDS} envelopes once each at their newest version through three SIGKILLs and a SIGTERM mid-backlog, and dead-letters the invalid ones`,
    async () => {
      process.stdout.write(`stream consumer fault test: seed ${SEED} (CRS_KILL_SEED=${SEED} replays it)\n`);
      const random = seeded(SEED);
      const env = versionedEnvelopes(P, RECORDS, SEED);
      const lines = [...env.lines];
      for (const [i, p] of POISON.entries()) lines.splice(Math.floor((lines.length * (i + 1)) / (POISON.length + 1)), 0, p);
      // Published in three parts, each while a consumer runs: a consumer faster than the publisher would otherwise be idle when killed.
      const third = Math.ceil(lines.length / 3);
      const leftUnacked: number[] = [];
      for (let kill = 0; kill < 3; kill++) {
        const c = startConsumer();
        await until('the consumer to start', () => c.output().includes('"consuming"') || c.child.exitCode !== null, 60_000);
        expect(c.child.exitCode, c.output()).toBeNull();
        const published = stream.publish(lines.slice(kill * third, (kill + 1) * third));
        // Killed with a batch in hand (delivered, not yet acknowledged), somewhere in fetching, committing or acknowledging it.
        await until('a batch in hand', async () => ((await stream.lag())?.ackPending ?? 0) > 0 || c.child.exitCode !== null, 20_000);
        await new Promise((r) => setTimeout(r, Math.floor(random() * 20)));
        c.child.kill('SIGKILL');
        await c.exited;
        leftUnacked.push((await stream.lag())?.ackPending ?? 0);
        await published;
      }
      // The kills cut work short: messages delivered to a killed consumer waited for redelivery.
      expect(leftUnacked.some((n) => n > 0), `unacknowledged after each kill: ${leftUnacked.join(', ')}`).toBe(true);
      // A SIGTERM in the middle of the backlog: the batch in hand is committed and acknowledged, then it exits 0.
      const stopped = startConsumer();
      await until('the consumer to start', () => stopped.output().includes('"consuming"') || stopped.child.exitCode !== null, 60_000);
      await new Promise((r) => setTimeout(r, 300));
      stopped.child.kill('SIGTERM');
      expect(await stopped.exited, stopped.output()).toBe(0);
      expect(stopped.output()).toContain('"stopped"');
      const last = startConsumer();
      // Started before it is stopped: the backlog may already be consumed, and a signal before its handler is installed kills it.
      await until('the consumer to start', () => last.output().includes('"consuming"') || last.child.exitCode !== null, 60_000);
      await until(
        'the stream to be consumed',
        async () => {
          const lag = await stream.lag();
          return lag !== undefined && lag.pending === 0 && lag.ackPending === 0;
        },
        RECORDS * 20 + 60_000,
      );
      last.child.kill('SIGTERM');
      expect(await last.exited, last.output()).toBe(0);
      expect(last.output()).toContain('"stopped"');

      expect(await versionProblems(store, P, env)).toEqual([]);
      const dead = await stream.deadLetters();
      // A dead letter sent just before a SIGKILL, its ack lost, is sent again: each poison line at least once, nothing else.
      expect(new Set(dead.map((m) => Buffer.from(m.data).toString('utf8')))).toEqual(new Set(POISON));
      for (const m of dead) {
        expect(m.headers?.get(DEAD_LETTER_HEADERS.message)).not.toBe('');
        expect(m.headers?.get(DEAD_LETTER_HEADERS.subject)).toMatch(new RegExp(`^${stream.subject.replace(/\./g, '\\.')}\\.`));
        expect(JSON.parse(m.headers!.get(DEAD_LETTER_HEADERS.issues))).toBeInstanceOf(Array);
      }
      const sleeping = dead.find((m) => Buffer.from(m.data).toString('utf8') === POISON[1]);
      expect(sleeping?.headers?.get(DEAD_LETTER_HEADERS.pointer)).toBe('/record/status');
    },
    RECORDS * 40 + 180_000,
  );

  it('serves its lag and throughput on its own /metrics port, and a SIGTERM with nothing to do exits 0', async () => {
    const port = await freePort();
    const c = startConsumer({ CONSUME_METRICS_PORT: String(port), HOST: '127.0.0.1' });
    await until('the consumer to start', () => c.output().includes('"consuming"') || c.child.exitCode !== null, 60_000);
    await stream.publish(versionedEnvelopes(P, 40, 3).lines.slice(0, 5));
    let text = '';
    await until(
      'the metrics to show the messages',
      async () => {
        text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
        return /crs_consume_messages_total\{outcome="(stored|unchanged|stale)"\} \d+/.test(text) && /crs_consume_pending_messages 0/.test(text);
      },
      30_000,
    );
    expect(text).toMatch(/crs_consume_batch_duration_seconds_count \d+/);
    c.child.kill('SIGTERM');
    expect(await c.exited, c.output()).toBe(0);
  }, 120_000);
});
