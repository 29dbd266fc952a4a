import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { StoreError, StoreUnavailableError } from '../store/store-errors.js';
import { timedStore } from '../store/timed-store.js';
import { StoreOutageLog } from './store-outage-log.js';

/** A pino logger writing its lines into an array (pino writes to any object with a write method). */
function memoryLogger(): { logger: pino.Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  return { logger: pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) }), lines };
}

describe('StoreOutageLog', () => {
  it('logs an outage once when it starts, with its error, and once when the store answers again, with the count', async () => {
    const { logger, lines } = memoryLogger();
    let up = true;
    const store = {
      async ping(): Promise<void> {
        if (!up) throw new StoreUnavailableError('connect ECONNREFUSED 127.0.0.1:5432');
      },
    };
    const observed: string[] = [];
    const timed = timedStore(store, new StoreOutageLog(logger).observing((op, outcome) => observed.push(`${op} ${outcome}`)));
    await timed.ping();
    up = false;
    for (let i = 0; i < 50; i++) await expect(timed.ping()).rejects.toBeInstanceOf(StoreUnavailableError);
    up = true;
    await timed.ping();
    await timed.ping();
    await new Promise((r) => setImmediate(r));
    expect(observed).toHaveLength(53);
    expect(lines.map((l) => l.msg)).toEqual(['store unavailable: answering 503 until it answers again', 'store available again']);
    expect((lines[0]!.err as { message: string }).message).toBe('connect ECONNREFUSED 127.0.0.1:5432');
    expect(lines[1]).toMatchObject({ failedCalls: 50 });
    expect(typeof lines[1]!.unavailableMs).toBe('number');
  });

  it('opens the outage at a synchronous member that fails too (the key generation read at the door)', async () => {
    const { logger, lines } = memoryLogger();
    const store = {
      generation(): number {
        throw new StoreUnavailableError('the SQLite file cannot be read');
      },
    };
    const timed = timedStore(store, new StoreOutageLog(logger).observing(() => undefined));
    expect(() => timed.generation()).toThrow(StoreUnavailableError);
    expect(() => timed.generation()).toThrow(StoreUnavailableError);
    await new Promise((r) => setImmediate(r));
    expect(lines.map((l) => l.msg)).toEqual(['store unavailable: answering 503 until it answers again']);
  });

  it('leaves other failures to the request that met them', async () => {
    const { logger, lines } = memoryLogger();
    const log = new StoreOutageLog(logger);
    log.unavailable(new StoreError('value too long'), 'writeBatch');
    log.answered();
    await new Promise((r) => setImmediate(r));
    expect(lines).toEqual([]);
  });

  it('leaves a background call that failed to its own caller (the access log writer retries and says so itself)', async () => {
    const { logger, lines } = memoryLogger();
    const store = {
      async appendAccessLog(): Promise<void> {
        throw new StoreUnavailableError('another process holds the SQLite file locked (SQLITE_BUSY)');
      },
      async pruneAccessLog(): Promise<void> {
        throw new StoreUnavailableError('another process holds the SQLite file locked (SQLITE_BUSY)');
      },
      async ping(): Promise<void> {},
    };
    const timed = timedStore(store, new StoreOutageLog(logger).observing(() => undefined));
    await expect(timed.appendAccessLog()).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(timed.pruneAccessLog()).rejects.toBeInstanceOf(StoreUnavailableError);
    await timed.ping();
    await new Promise((r) => setImmediate(r));
    expect(lines).toEqual([]);
  });
});
