import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AccessLogEntry } from './access-log.js';
import { batchesOf, gatherEntries, type BatchRow } from './batches.js';

// Small pages, so that most runs cross several round trips.
const PAGE = 4;
const at = (second: number): string => new Date(Date.UTC(2026, 2, 1, 0, 0, second)).toISOString();

describe('gatherEntries', () => {
  it('matches sorting every entry by time and batch order, for any batching, window, record (asked for or returned) and limit', async () => {
    const entryArb = fc.record({ second: fc.integer({ min: 0, max: 40 }), record: fc.constantFrom('r1', 'r2', null), returned: fc.subarray(['r1', 'r2', 'r3']) });
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(entryArb, { minLength: 1, maxLength: 12 }), { maxLength: 30 }),
        fc.integer({ min: 1, max: 25 }),
        fc.option(fc.integer({ min: 0, max: 40 }), { nil: undefined }),
        fc.option(fc.integer({ min: 0, max: 40 }), { nil: undefined }),
        fc.constantFrom('r1', 'r2', 'r3', undefined),
        async (batches, limit, since, until, recordId) => {
          const rows: (BatchRow & { all: AccessLogEntry[] })[] = batches.map((list, b) => {
            const all = list.map((e, i): AccessLogEntry => ({
              at: at(e.second),
              keyId: 'k',
              project: 'p',
              route: '/r',
              recordId: e.record,
              status: 200,
              requestId: `${b}-${i}`,
              client: 'c',
              ...(e.returned.length > 0 ? { records: e.returned } : {}),
            }));
            const [batch] = batchesOf(all);
            return { id: b + 1, project: 'p', first_at: batch!.firstAt, entries: batch!.entries, all };
          });
          rows.sort((x, y) => (x.first_at < y.first_at ? -1 : x.first_at > y.first_at ? 1 : Number(x.id) - Number(y.id)));
          const q = { project: 'p', limit, since: since === undefined ? undefined : at(since), until: until === undefined ? undefined : at(until), recordId };
          // Pages of the ordered rows, as a store's keyset query returns them.
          const fetch = async (after: { firstAt: string; id: number } | undefined) => {
            const start = after === undefined ? 0 : rows.findIndex((r) => r.first_at === after.firstAt && Number(r.id) === after.id) + 1;
            return rows.slice(start, start + PAGE);
          };
          const expected = rows
            .flatMap((r) => r.all.map((e, position) => ({ e, batch: Number(r.id), position })))
            .filter(({ e }) => (q.since === undefined || e.at >= q.since) && (q.until === undefined || e.at < q.until) && (recordId === undefined || e.recordId === recordId || (e.records?.includes(recordId) ?? false)))
            .sort((x, y) => (x.e.at < y.e.at ? -1 : x.e.at > y.e.at ? 1 : x.batch - y.batch || x.position - y.position))
            .slice(0, limit)
            .map(({ e }) => e);
          expect(await gatherEntries(q, fetch, PAGE)).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('batchesOf', () => {
  it('makes one batch per project spanning its entries’ earliest and latest times', () => {
    const e = (project: string, second: number): AccessLogEntry => ({ at: at(second), keyId: null, project, route: '/r', recordId: null, status: 401, requestId: `${project}${second}`, client: 'c' });
    const out = batchesOf([e('a', 5), e('b', 1), e('a', 2), e('a', 9)]);
    expect(out.map((b) => [b.project, b.firstAt, b.lastAt, JSON.parse(b.entries).length])).toEqual([
      ['a', at(2), at(9), 3],
      ['b', at(1), at(1), 1],
    ]);
  });
});
