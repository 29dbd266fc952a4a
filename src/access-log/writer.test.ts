import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { AccessLogBatch, AccessLogEntry, AccessLogStore } from './access-log.js';
import { AccessLogWriter } from './writer.js';

const entry = (n: number): AccessLogEntry => ({
  at: new Date(Date.UTC(2026, 0, 1, 0, 0, 0, n)).toISOString(),
  keyId: 'k1',
  project: 'proj-a',
  route: '/v1/alerts/:id',
  recordId: null,
  status: 200,
  requestId: `r-${n}`,
  client: '127.0.0.1',
});

/** The request ids of the entries in batches, in order. */
const requestIds = (batches: readonly AccessLogBatch[]): string[] => batches.flatMap((b) => (JSON.parse(b.entries) as unknown[][]).map((e) => e[5] as string));

/** An access log that can be switched off, and counts the writes it was asked for. */
function switchableLog(): AccessLogStore & { up: boolean; calls: number; written: string[]; sizes: number[] } {
  const log = {
    up: false,
    calls: 0,
    /** Entries per write that succeeded. */
    sizes: [] as number[],
    /** Request ids of the entries written. */
    written: [] as string[],
    async appendAccessLog(batches: readonly AccessLogBatch[]) {
      log.calls++;
      await new Promise((r) => setTimeout(r, 1));
      if (!log.up) throw new Error('store unreachable');
      const ids = requestIds(batches);
      log.sizes.push(ids.length);
      log.written.push(...ids);
    },
    async queryAccessLog() {
      return [];
    },
    async indexAccessLog() {
      return 0;
    },
  };
  return log;
}

describe('AccessLogWriter', () => {
  it('starts one write at a time however many entries arrive while the store refuses them', async () => {
    const store = switchableLog();
    const writer = new AccessLogWriter(store, undefined, { batch: 10, flushMs: 60_000 });
    for (let i = 0; i < 5_000; i++) writer.append(entry(i));
    await writer.flush();
    // One attempt per drain, not one per entry past the batch size.
    expect(store.calls).toBeLessThanOrEqual(2);
    expect(writer.pending).toBe(5_000);
    store.up = true;
    await writer.close();
    expect(store.written).toEqual(Array.from({ length: 5_000 }, (_, i) => `r-${i}`));
    expect(writer.pending).toBe(0);
  });

  it('writes answers refused for a spent budget as one counted entry per key and address per summary interval', async () => {
    const store = switchableLog();
    store.up = true;
    const batches: AccessLogBatch[] = [];
    const append = store.appendAccessLog;
    store.appendAccessLog = async (b) => (batches.push(...b), append(b));
    const writer = new AccessLogWriter(store, undefined, { flushMs: 20, summaryMs: 50 });
    const refused = (n: number, client: string): AccessLogEntry => ({ ...entry(n), status: 429, keyId: null, project: '', client });
    for (let i = 0; i < 1_000; i++) writer.summarize(refused(i, i % 4 === 0 ? '10.0.0.2' : '10.0.0.1'));
    for (let i = 0; i < 200 && batches.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    writer.summarize(refused(1_000, '10.0.0.1'));
    await writer.close();
    const written = batches.flatMap((b) => JSON.parse(b.entries) as unknown[][]).map((e) => [e[6], e[7]]);
    // Written by the timer once the interval passed, then what close found.
    expect(written).toEqual([
      ['10.0.0.2', 250],
      ['10.0.0.1', 750],
      ['10.0.0.1', 1],
    ]);
    expect(writer.summarized).toBe(1_001);
  });

  it('drops the oldest waiting batches past maxBuffered, never the one being written', async () => {
    const store = switchableLog();
    store.up = true;
    const writer = new AccessLogWriter(store, undefined, { batch: 4, flushMs: 60_000, maxBuffered: 8 });
    for (let i = 0; i < 4; i++) writer.append(entry(i)); // a full batch: its write starts now
    for (let i = 4; i < 16; i++) writer.append(entry(i)); // 3 batches more while it is written; room for 1
    await writer.close();
    expect(writer.dropped).toBe(8);
    expect(store.written).toEqual(['r-0', 'r-1', 'r-2', 'r-3', 'r-12', 'r-13', 'r-14', 'r-15']);
  });

  it('closes a write at batchBytes and drops the oldest waiting writes past maxBufferedBytes: list answers’ entries are large', async () => {
    const store = switchableLog();
    store.up = true;
    const writer = new AccessLogWriter(store, undefined, { batch: 500, flushMs: 60_000, batchBytes: 20_000, maxBufferedBytes: 60_000 });
    // Keys of its own per entry: a key the batch already holds is not counted again.
    const listed = (n: number): AccessLogEntry => ({ ...entry(n), records: Array.from({ length: 200 }, (_, i) => `e${String(n).padStart(2, '0')}-${String(i).padStart(4, '0')}`) });
    // About 4.9 KB each (the keys in the entry and in the batch's record ids): a write closes every 5 entries, far below 500.
    for (let i = 0; i < 5; i++) writer.append(listed(i)); // its write starts now
    for (let i = 5; i < 30; i++) writer.append(listed(i)); // 5 writes more while it is written; room for 1 beside it
    await writer.close();
    expect(store.sizes).toEqual([5, 5]);
    expect(writer.dropped).toBe(20);
    expect(store.written).toEqual(['r-0', 'r-1', 'r-2', 'r-3', 'r-4', 'r-25', 'r-26', 'r-27', 'r-28', 'r-29']);
  });

  it('retries failed writes quietly while they fail briefly, and says so once, then once resumed, when they keep failing', async () => {
    const lines: string[] = [];
    // pino writes each line to any object with a write method.
    const log = pino(
      { level: 'info' },
      {
        write(line: string) {
          const r = JSON.parse(line) as { level: number; msg: string };
          lines.push(`${pino.levels.labels[r.level]} ${r.msg}`);
        },
      },
    );
    /** Writes ten entries into a store down for `downMs`, with writes loud after `failingLoudMs`; all ten get written. */
    const failFor = async (downMs: number, failingLoudMs: number): Promise<void> => {
      const store = switchableLog();
      const writer = new AccessLogWriter(store, log, { batch: 10, flushMs: 5, failingLoudMs });
      for (let i = 0; i < 10; i++) writer.append(entry(i));
      await new Promise((r) => setTimeout(r, downMs));
      store.up = true;
      await writer.close();
      expect(store.written).toHaveLength(10);
    };
    await failFor(40, 60_000);
    expect(lines).toEqual([]);
    await failFor(80, 20);
    expect(lines).toEqual(['error access log write failed; entries kept for retry', 'warn access log writes resumed']);
  });

  it('retries a refused write when its timer fires, not with every request that follows', async () => {
    const store = switchableLog();
    const writer = new AccessLogWriter(store, undefined, { batch: 10, flushMs: 60_000 });
    for (let round = 0; round < 50; round++) {
      for (let i = 0; i < 100; i++) writer.append(entry(round * 100 + i));
      await new Promise((r) => setTimeout(r, 2));
    }
    expect(store.calls).toBe(1);
    store.up = true;
    await writer.close();
    expect(store.written).toHaveLength(5_000);
  });

  it('collects full batches while the store stays down, not one small batch per timer tick', async () => {
    const store = switchableLog();
    const writer = new AccessLogWriter(store, undefined, { batch: 10, flushMs: 60_000 });
    // A quiet service: a few entries between ticks, every tick refused.
    for (let tick = 0; tick < 8; tick++) {
      for (let i = 0; i < 3; i++) writer.append(entry(tick * 3 + i));
      await writer.flush();
    }
    store.up = true;
    await writer.close();
    // The first tick closes its 3 entries (nothing waited before them); later ones fill whole batches.
    expect(store.sizes).toEqual([3, 10, 10, 1]);
    expect(store.written).toEqual(Array.from({ length: 24 }, (_, i) => `r-${i}`));
  });

  it('writes full batches while entries keep arriving, and leaves partial ones to the timer', async () => {
    const store = switchableLog();
    store.up = true;
    const writer = new AccessLogWriter(store, undefined, { batch: 50, flushMs: 25 });
    const started = performance.now();
    // 20 entries per millisecond: each 1 ms write sees a few more arrive before it ends.
    for (let round = 0; round < 200; round++) {
      for (let i = 0; i < 20; i++) writer.append(entry(round * 20 + i));
      await new Promise((r) => setTimeout(r, 1));
    }
    const ticks = Math.ceil((performance.now() - started) / 25);
    await writer.close();
    // Partial batches come only from the timer's ticks (one each at most) and the close.
    expect(store.sizes.filter((n) => n < 50).length).toBeLessThanOrEqual(ticks + 1);
    expect(store.sizes.filter((n) => n === 50).length).toBeGreaterThan(40);
    expect(store.written).toEqual(Array.from({ length: 4_000 }, (_, i) => `r-${i}`));
  });
});
