/** What `copy` needs of every adapter: schema version, emptiness, the secret, row export and import. */
import { afterAll, describe, expect, it } from 'vitest';
import { POSTGRES_MIGRATIONS } from '../../src/store/postgres/migrations.js';
import { SQLITE_MIGRATIONS } from '../../src/store/sqlite/migrations.js';
import type { ApiKeyRecord, Store, StoreRow } from '../../src/store/store.js';
import { storeHarnesses, type Harness } from '../support/store-harness.js';
import { alert, body, customer, day, execution } from '../support/upserts.js';

const apiKey = (id: string, project: string): ApiKeyRecord => ({
  id,
  project,
  name: null,
  scopes: ['alerts:read'],
  hash: `hash-${id}`,
  createdAt: day(1),
  expiresAt: null,
  revokedAt: day(2),
});

async function collect(rows: AsyncIterable<StoreRow[]>): Promise<StoreRow[][]> {
  const chunks: StoreRow[][] = [];
  for await (const chunk of rows) chunks.push(chunk);
  return chunks;
}

describe.each(storeHarnesses())('$adapter store rows for copy', ({ adapter, make }) => {
  const opened: { harness: Harness; store: Store }[] = [];
  /** A new, empty database per test: exports read the whole store. */
  const fresh = async (): Promise<Store> => {
    const harness = make();
    const store = await harness.open();
    opened.push({ harness, store });
    return store;
  };
  afterAll(async () => {
    for (const { harness, store } of opened) {
      await store.close();
      await harness.cleanup();
    }
  });

  it('reports the latest schema version once open', async () => {
    const store = await fresh();
    const latest = adapter === 'sqlite' ? SQLITE_MIGRATIONS.length : POSTGRES_MIGRATIONS.length;
    expect(await store.schemaVersion()).toBe(latest);
  });

  it('holds no records until a customer, alert or execution is written, API keys aside', async () => {
    const store = await fresh();
    expect(await store.hasRecords()).toBe(false);
    await store.insertApiKey(apiKey('k1', 'p'));
    expect(await store.hasRecords()).toBe(false);
    await store.writeBatch([execution('p', 'c', 'e', day(1))]);
    expect(await store.hasRecords()).toBe(true);
  });

  it('replaces its secret, and keeps the new one across reopening', async () => {
    const store = await fresh();
    const secret = Buffer.alloc(32, 7);
    await store.setSecret(secret);
    expect(await store.secret()).toEqual(secret);
    const { harness } = opened[opened.length - 1]!;
    const again = await harness.open();
    try {
      expect(await again.secret()).toEqual(secret);
    } finally {
      await again.close();
    }
  });

  it('exports every row in chunks no larger than asked, table by table, a bare row for an execution-only customer', async () => {
    const store = await fresh();
    const records = [
      customer('p', 'acme', day(1)),
      customer('p', 'jane', null, false),
      alert('p', 'al-1', day(2)),
      execution('p', 'acme', 'e1', day(1), { status: null, scenarioIds: ['s1', 's2'], objectTypes: 5 }),
      execution('p', 'ghost', 'e2', day(2), { scenarioIds: [] }),
      execution('q', 'acme', 'e1', day(3)),
    ];
    await store.writeBatch(records);
    await store.insertApiKey(apiKey('k1', 'p'));
    const chunks = await collect(store.exportRows(2));
    for (const chunk of chunks) {
      expect(chunk.length).toBeLessThanOrEqual(2);
      // Customers and bare customers share a table; every other chunk holds one kind.
      expect(new Set(chunk.map((r) => (r.kind === 'bareCustomer' ? 'customer' : r.kind))).size).toBe(1);
    }
    const rows = chunks.flat();
    expect(rows.map((r) => r.kind)).toEqual([
      'customer', 'bareCustomer', 'customer', 'bareCustomer', 'alert', 'execution', 'execution', 'execution', 'apiKey',
      // One change feed entry per stored record, carried as it is.
      'change', 'change', 'change', 'change', 'change', 'change',
    ]);
    expect(rows).toContainEqual({ kind: 'bareCustomer', project: 'p', customerKey: 'ghost' });
    expect(rows).toContainEqual({ kind: 'apiKey', record: apiKey('k1', 'p') });
    for (const r of records) expect(rows).toContainEqual(r);
  });

  it('imports rows as they are: an older version replaces a newer one, with no version rule', async () => {
    const store = await fresh();
    await store.writeBatch([customer('p', 'acme', day(3)), alert('p', 'al', day(3))]);
    const [older, olderAlert] = [customer('p', 'acme', day(1), true, 'old'), alert('p', 'al', day(1), 'old')];
    await store.importRows([older, olderAlert]);
    expect(await store.getCompany('p', 'acme')).toEqual(body(older));
    expect(await store.getAlert('p', 'al')).toEqual(body(olderAlert));
  });

  it('imports a bare customer without erasing the record already stored', async () => {
    const store = await fresh();
    const acme = customer('p', 'acme', day(1));
    await store.writeBatch([acme]);
    await store.importRows([
      { kind: 'bareCustomer', project: 'p', customerKey: 'acme' },
      { kind: 'bareCustomer', project: 'p', customerKey: 'ghost' },
    ]);
    expect(await store.getCompany('p', 'acme')).toEqual(body(acme));
    expect(await store.customerKnown('p', 'ghost')).toBe(true);
    expect(await store.getCompany('p', 'ghost')).toBeUndefined();
  });

  it('moves the scenario index of an execution an import replaces, and makes its customer known', async () => {
    const store = await fresh();
    await store.writeBatch([execution('p', 'c', 'e', day(3), { scenarioIds: ['s1'] })]);
    const replacement = execution('p', 'c', 'e', day(1), { scenarioIds: ['s2', 's2'], note: 'copied' });
    await store.importRows([replacement, execution('p', 'other', 'e9', day(2))]);
    const page = (scenarioId?: string) => store.listExecutions('p', 'c', { order: 'desc', scenarioId }, undefined, 10);
    expect(await page('s1')).toEqual([]);
    expect(await page('s2')).toEqual([{ executionId: 'e', sortKey: day(1), ...body(replacement) }]);
    expect(await page()).toHaveLength(1);
    expect(await store.customerKnown('p', 'other')).toBe(true);
  });

  it('replaces an API key with the same id, keeping its hash findable', async () => {
    const store = await fresh();
    await store.insertApiKey(apiKey('k1', 'p'));
    const renamed = { ...apiKey('k1', 'p'), name: 'renamed', revokedAt: null };
    await store.importRows([{ kind: 'apiKey', record: renamed }]);
    expect(await store.findApiKeyByHash('hash-k1')).toEqual(renamed);
    expect(await store.listApiKeys()).toEqual([renamed]);
  });

  it('exports from one snapshot: rows written after the first chunk are not in it', async () => {
    const store = await fresh();
    await store.writeBatch([customer('p', 'a', day(1)), customer('p', 'b', day(1))]);
    const rows: StoreRow[] = [];
    let wrote = false;
    for await (const chunk of store.exportRows(1)) {
      rows.push(...chunk);
      if (!wrote) {
        wrote = true;
        await store.writeBatch([customer('p', 'c', day(1)), alert('p', 'late', day(1))]);
      }
    }
    expect(rows.map((r) => (r.kind === 'customer' ? r.key : r.kind))).toEqual(['a', 'b', 'change', 'change']);
    expect(await store.customerKnown('p', 'c')).toBe(true);
  });

  it('lets go of its snapshot when the reader stops early', async () => {
    const store = await fresh();
    await store.writeBatch([customer('p', 'a', day(1)), customer('p', 'b', day(1))]);
    for (let i = 0; i < 6; i++) {
      for await (const chunk of store.exportRows(1)) {
        expect(chunk).toHaveLength(1);
        break;
      }
    }
    // Every connection came back usable: six abandoned exports exceed the test pool of four.
    await store.writeBatch([customer('p', 'c', day(1))]);
    // Three customers and their three change feed entries.
    expect((await collect(store.exportRows(10))).flat()).toHaveLength(6);
  });
});
