/**
 * The list page cache serves a page again only while its project is unchanged: on both stores, a
 * write in the project (by this store or another connection) makes the next page fresh, a write in
 * another project does not; on PostgreSQL also a transaction that was open when the page was read
 * and commits afterwards.
 */
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { fieldsFor } from '../../src/wire/render.js';
import { changeOf } from '../../src/store/change-items.js';
import { withListPageCache } from '../../src/store/list-page-cache.js';
import { writeChanges } from '../../src/store/postgres/postgres-changes.js';
import type { Store } from '../../src/store/store.js';
import { harness, openTracked, storeHarnesses, type Harness } from '../support/store-harness.js';
import { postgresWanted } from '../support/stores.js';
import { alert, customer, day, execution } from '../support/upserts.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const openHarness = (h: Harness): Promise<Store> => openTracked(h, cleanups);

const DESC = { sort: 'updatedAt', order: 'desc' } as const;
const keys = (rows: readonly { alertKey: string }[]): string[] => rows.map((r) => r.alertKey);

describe.each(storeHarnesses())('list page cache on $adapter', ({ make }) => {
  it('answers from memory while the project is unchanged, and reads afresh after a write in it', async () => {
    const store = await openHarness(make());
    const outcomes: string[] = [];
    const cached = withListPageCache(store, 1 << 20, (_list, outcome) => outcomes.push(outcome));
    await store.writeBatch([alert('p', 'a', day(1)), alert('q', 'x', day(1))]);

    const first = await cached.listAlerts('p', DESC, undefined, 10);
    const again = await cached.listAlerts('p', DESC, undefined, 10);
    expect(keys(again)).toEqual(keys(first));
    expect(outcomes).toEqual(['miss', 'hit']);

    // Another project's write leaves the page current.
    await store.writeBatch([alert('q', 'y', day(2))]);
    await cached.listAlerts('p', DESC, undefined, 10);
    expect(outcomes.at(-1)).toBe('hit');

    // A write in the project, through the store the cache wraps or not, makes it stale.
    await store.writeBatch([alert('p', 'b', day(2))]);
    const fresh = await cached.listAlerts('p', DESC, undefined, 10);
    expect(outcomes.at(-1)).toBe('stale');
    expect(keys(first)).toEqual(['a']);
    expect(keys(fresh)).toEqual(['b', 'a']);
    expect(keys(await cached.listAlerts('p', DESC, undefined, 10))).toEqual(keys(fresh));
    expect(outcomes.at(-1)).toBe('hit');
  });

  it('keeps pages of different filters, pages and fields apart', async () => {
    const store = await openHarness(make());
    const cached = withListPageCache(store, 1 << 20);
    await store.writeBatch([alert('p', 'a', day(1)), alert('p', 'b', day(2))]);
    expect(keys(await cached.listAlerts('p', DESC, undefined, 10))).toEqual(['b', 'a']);
    expect(keys(await cached.listAlerts('p', { ...DESC, order: 'asc' }, undefined, 10))).toEqual(['a', 'b']);
    expect(keys(await cached.listAlerts('p', DESC, undefined, 1))).toEqual(['b']);
    expect(keys(await cached.listAlerts('p', DESC, { sortKey: day(2), alertKey: 'b' }, 10))).toEqual(['a']);
    expect(keys(await cached.listAlerts('p', { ...DESC, statuses: ['Closed'] }, undefined, 10))).toEqual([]);
    expect(await cached.listAlerts('other', DESC, undefined, 10)).toEqual([]);
    // The fields read are part of the page: gzip rows come without their JSON, identity rows with it.
    const gzipRows = await cached.listAlerts('p', DESC, undefined, 10, fieldsFor('gzip'));
    const plainRows = await cached.listAlerts('p', DESC, undefined, 10, fieldsFor('identity'));
    expect(gzipRows.map((r) => r.body)).toEqual([null, null]);
    expect(plainRows.every((r) => r.body !== null && r.body.length > 0)).toBe(true);
    // And the same page again, from memory, as it was.
    expect(keys(await cached.listAlerts('p', DESC, undefined, 1))).toEqual(['b']);
  });

  it('keeps a customer’s execution pages apart from another’s, and reads them afresh after an execution is stored', async () => {
    const store = await openHarness(make());
    const outcomes: string[] = [];
    const cached = withListPageCache(store, 1 << 20, (list, outcome) => outcomes.push(`${list} ${outcome}`));
    await store.writeBatch([execution('p', 'c1', 'e1', day(1)), execution('p', 'c2', 'e2', day(1))]);
    const ids = (rows: readonly { executionId: string }[]): string[] => rows.map((r) => r.executionId);
    expect(ids(await cached.listExecutions('p', 'c1', { order: 'desc' }, undefined, 10))).toEqual(['e1']);
    expect(ids(await cached.listExecutions('p', 'c2', { order: 'desc' }, undefined, 10))).toEqual(['e2']);
    expect(ids(await cached.listExecutions('p', 'c1', { order: 'desc' }, undefined, 10))).toEqual(['e1']);
    await store.writeBatch([execution('p', 'c1', 'e3', day(2))]);
    expect(ids(await cached.listExecutions('p', 'c1', { order: 'desc' }, undefined, 10))).toEqual(['e3', 'e1']);
    expect(outcomes).toEqual(['executions miss', 'executions miss', 'executions hit', 'executions stale']);
  });

  it('reads afresh after an erasure or a prune, which leave erase items in the feed', async () => {
    const store = await openHarness(make());
    const cached = withListPageCache(store, 1 << 20);
    await store.writeBatch([alert('p', 'a', day(1)), alert('p', 'b', day(2), '', { customerKey: 'customer-2' }), alert('p', 'c', day(3), '', { customerKey: 'customer-3' })]);
    expect(keys(await cached.listAlerts('p', DESC, undefined, 10))).toEqual(['c', 'b', 'a']);
    await store.eraseCustomer('p', 'customer-1', { dryRun: false });
    expect(keys(await cached.listAlerts('p', DESC, undefined, 10))).toEqual(['c', 'b']);
    await store.pruneRecords('alerts', day(3), { dryRun: false });
    expect(keys(await cached.listAlerts('p', DESC, undefined, 10))).toEqual(['c']);
  });

  it('keeps the alert counts like a page', async () => {
    const store = await openHarness(make());
    const outcomes: string[] = [];
    const cached = withListPageCache(store, 1 << 20, (list, outcome) => outcomes.push(`${list} ${outcome}`));
    await store.writeBatch([alert('p', 'a', day(1)), alert('p', 'b', day(2), '', { status: 'Closed' })]);
    expect(Object.fromEntries(await cached.countAlerts('p', {}))).toEqual({ Open: 1, Closed: 1 });
    expect(Object.fromEntries(await cached.countAlerts('p', {}))).toEqual({ Open: 1, Closed: 1 });
    await store.writeBatch([alert('p', 'c', day(3))]);
    expect(Object.fromEntries(await cached.countAlerts('p', {}))).toEqual({ Open: 2, Closed: 1 });
    expect(outcomes).toEqual(['alert-counts miss', 'alert-counts hit', 'alert-counts stale']);
  });

  it('is not a cache when given no memory', async () => {
    const store = await openHarness(make());
    expect(withListPageCache(store, 0)).toBe(store);
  });
});

describe('a write from another connection', () => {
  it.each(storeHarnesses())('makes the page stale on $adapter', async ({ make }) => {
    const h = make();
    const store = await openHarness(h);
    const other = await h.open();
    cleanups.push(() => other.close());
    const outcomes: string[] = [];
    const cached = withListPageCache(store, 1 << 20, (_list, outcome) => outcomes.push(outcome));
    await store.writeBatch([alert('p', 'a', day(1))]);
    expect(await cached.listAlerts('p', DESC, undefined, 10)).toHaveLength(1);
    await other.writeBatch([alert('p', 'b', day(2))]);
    expect(await cached.listAlerts('p', DESC, undefined, 10)).toHaveLength(2);
    expect(outcomes).toEqual(['miss', 'stale']);
  });
});

describe.skipIf(!postgresWanted)('PostgreSQL: a transaction open while the page was read', () => {
  /** A cached store with one page read, and a transaction begun before it that wrote a feed entry of the project. */
  async function pageBesideOpenTransaction(later: boolean): Promise<{ read: () => Promise<unknown>; open: pg.Client; outcomes: string[] }> {
    const h = harness('postgres');
    const store = await openHarness(h);
    const outcomes: string[] = [];
    const cached = withListPageCache(store, 1 << 20, (_list, outcome) => outcomes.push(outcome));
    await store.writeBatch([alert('p', 'a', day(1))]);
    const open = new pg.Client({ connectionString: h.url });
    await open.connect();
    cleanups.push(() => open.end());
    await open.query('BEGIN');
    await writeChanges(open, [changeOf(customer('p', 'late', day(3)), new Date().toISOString())]);
    // A later transaction completing first lists the open one as running inside the snapshot, not past it.
    if (later) await store.writeBatch([alert('q', 'other', day(2))]);
    const read = (): Promise<unknown> => cached.listAlerts('p', DESC, undefined, 10);
    await read();
    return { read, open, outcomes };
  }

  it.each([false, true])('makes the page stale when it commits a change of the project, and not before (a later transaction done first: %s)', async (later) => {
    const { read, open, outcomes } = await pageBesideOpenTransaction(later);
    await read();
    expect(outcomes).toEqual(['miss', 'hit']);
    await open.query('COMMIT');
    await read();
    expect(outcomes.at(-1)).toBe('stale');
    await read();
    expect(outcomes.at(-1)).toBe('hit');
  });

  it('leaves the page current when such a transaction rolls back', async () => {
    const { read, open, outcomes } = await pageBesideOpenTransaction(true);
    await open.query('ROLLBACK');
    await read();
    expect(outcomes).toEqual(['miss', 'hit']);
  });
});
