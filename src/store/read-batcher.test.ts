import { describe, expect, it } from 'vitest';
import { StoreError, StoreUnavailableError } from './store-errors.js';
import { MAX_KEYS_PER_STATEMENT, ReadBatcher, type BatchedStatement } from './read-batcher.js';

const COMPANIES: BatchedStatement = { operation: 'getCompany', name: 'companies', text: 'companies' };
const ALERTS: BatchedStatement = { operation: 'getAlert', name: 'alerts', text: 'alerts' };

/** A batcher over rows held per (statement, project), recording each statement it is asked to run. */
function batcherOver(rows: Record<string, Record<string, string[]>>, fail?: Error) {
  const runs: { name: string; project: string; keys: string[] }[] = [];
  const batcher = new ReadBatcher(async (statement: BatchedStatement, project: string, keys: string[]) => {
    runs.push({ name: statement.name, project, keys });
    if (fail !== undefined) throw fail;
    const held = rows[statement.name]?.[project] ?? [];
    return new Map(keys.filter((k) => held.includes(k)).map((k) => [k, { k, project }]));
  });
  return { batcher, runs };
}

describe('ReadBatcher', () => {
  it('sends the lookups of one turn as one statement per statement and project', async () => {
    const { batcher, runs } = batcherOver({ companies: { a: ['1', '2'], b: ['1'] }, alerts: { a: ['1'] } });
    const got = await Promise.all([
      batcher.get(COMPANIES, 'a', '1'),
      batcher.get(COMPANIES, 'a', '2'),
      batcher.get(COMPANIES, 'b', '1'),
      batcher.get(ALERTS, 'a', '1'),
      batcher.get(COMPANIES, 'a', '1'),
    ]);
    expect(runs).toEqual([
      { name: 'companies', project: 'a', keys: ['1', '2'] },
      { name: 'companies', project: 'b', keys: ['1'] },
      { name: 'alerts', project: 'a', keys: ['1'] },
    ]);
    expect(got).toEqual([
      { k: '1', project: 'a' },
      { k: '2', project: 'a' },
      { k: '1', project: 'b' },
      { k: '1', project: 'a' },
      { k: '1', project: 'a' },
    ]);
  });

  it('answers undefined for a key the statement finds no row for', async () => {
    const { batcher } = batcherOver({ companies: { a: ['1'] } });
    expect(await Promise.all([batcher.get(COMPANIES, 'a', '1'), batcher.get(COMPANIES, 'a', 'missing')])).toEqual([
      { k: '1', project: 'a' },
      undefined,
    ]);
  });

  it(`splits a turn's lookups past ${MAX_KEYS_PER_STATEMENT} keys into several statements`, async () => {
    const keys = Array.from({ length: MAX_KEYS_PER_STATEMENT * 2 + 1 }, (_, i) => String(i));
    const { batcher, runs } = batcherOver({ companies: { a: keys } });
    const got = await Promise.all(keys.map((k) => batcher.get(COMPANIES, 'a', k)));
    expect(runs.map((r) => r.keys.length)).toEqual([MAX_KEYS_PER_STATEMENT, MAX_KEYS_PER_STATEMENT, 1]);
    expect(got.map((r) => r?.k)).toEqual(keys);
  });

  it('starts a new batch for lookups made after the last one was sent', async () => {
    const { batcher, runs } = batcherOver({ companies: { a: ['1', '2'] } });
    await batcher.get(COMPANIES, 'a', '1');
    await batcher.get(COMPANIES, 'a', '2');
    expect(runs.map((r) => r.keys)).toEqual([['1'], ['2']]);
  });

  it('rejects every lookup of a batch with the error of its statement when the server is unavailable, asking once', async () => {
    const failure = new StoreUnavailableError('server gone');
    const { batcher, runs } = batcherOver({}, failure);
    const got = await Promise.allSettled([batcher.get(COMPANIES, 'a', '1'), batcher.get(COMPANIES, 'a', '2')]);
    expect(got).toEqual([
      { status: 'rejected', reason: failure },
      { status: 'rejected', reason: failure },
    ]);
    expect(runs).toHaveLength(1);
  });

  it('fails only the lookups of the key a batch failed on, asking each key alone after a failed batch', async () => {
    const refused = new StoreError('invalid byte sequence');
    const runs: string[][] = [];
    const batcher = new ReadBatcher(async (_statement: BatchedStatement, project: string, keys: string[]) => {
      runs.push(keys);
      if (keys.includes('bad')) throw refused;
      return new Map(keys.map((k) => [k, { k, project }]));
    });
    const got = await Promise.allSettled([
      batcher.get(COMPANIES, 'a', '1'),
      batcher.get(COMPANIES, 'a', 'bad'),
      batcher.get(COMPANIES, 'a', '2'),
      batcher.get(COMPANIES, 'a', 'bad'),
    ]);
    expect(got).toEqual([
      { status: 'fulfilled', value: { k: '1', project: 'a' } },
      { status: 'rejected', reason: refused },
      { status: 'fulfilled', value: { k: '2', project: 'a' } },
      { status: 'rejected', reason: refused },
    ]);
    expect(runs).toEqual([['1', 'bad', '2'], ['1'], ['bad'], ['2']]);
  });

  it('gathers lookups while its statements in flight are at their bound, and sends them as one when one answers', async () => {
    const runs: string[][] = [];
    let release: () => void = () => undefined;
    const batcher = new ReadBatcher(async (_statement: BatchedStatement, project: string, keys: string[]) => {
      runs.push(keys);
      if (runs.length === 1) await new Promise<void>((r) => (release = r));
      return new Map(keys.map((k) => [k, { k, project }]));
    }, 1);
    const first = batcher.get(COMPANIES, 'a', '1');
    await new Promise((r) => setImmediate(r));
    // Three turns while the first statement is out: nothing more is sent.
    const later: Promise<unknown>[] = [];
    for (const k of ['2', '3', '4']) {
      later.push(batcher.get(COMPANIES, 'a', k));
      await new Promise((r) => setImmediate(r));
    }
    later.push(batcher.get(ALERTS, 'a', '5'));
    expect(runs).toEqual([['1']]);
    release();
    expect(await first).toEqual({ k: '1', project: 'a' });
    expect((await Promise.all(later)).map((r) => (r as { k: string }).k)).toEqual(['2', '3', '4', '5']);
    expect(runs).toEqual([['1'], ['2', '3', '4'], ['5']]);
  });
});
