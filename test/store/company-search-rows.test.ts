/** The search rows follow their companies through writes in one batch and across batches, on both stores. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordKey } from '../../src/contract/record-key.js';
import { companyListingOf } from '../../src/store/company-listing.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { CustomerUpsert, Store } from '../../src/store/store.js';
import { companyRecord, numberedId, type CompanySpec } from '../support/companies.js';
import { storeHarnesses, type Harness } from '../support/store-harness.js';
import { stored } from '../support/upserts.js';

const P = 'proj-a';

function write(spec: CompanySpec, version: string): CustomerUpsert {
  const record = companyRecord({ ...spec, updatedAt: version });
  return { kind: 'customer', project: P, key: recordKey(spec.id), versionKey: version, isCompany: true, company: companyListingOf(record, 6), ...stored(record) };
}

const found = async (store: Store, q: string): Promise<string[]> => (await store.listCompanies(P, { order: 'desc', q }, undefined, 50)).map((c) => c.key).sort();

describe.each(storeHarnesses())('company search rows on $adapter', ({ make }) => {
  let h: Harness;
  let store: Store;
  beforeAll(async () => {
    h = make();
    store = await h.open();
  });
  afterAll(async () => {
    await store?.close();
    await h?.cleanup();
  });

  it('keeps the last name of a company written twice in one batch, and again in the next', async () => {
    const a: CompanySpec = { id: numberedId(1), project: P, name: 'Alpha Trading' };
    const b: CompanySpec = { id: numberedId(2), project: P, name: 'Bravo Trading' };
    await store.writeBatch([write(a, '2024-01-01T00:00:00Z'), write(b, '2024-01-01T00:00:00Z'), write({ ...a, name: 'Charlie Trading' }, '2024-01-02T00:00:00Z')]);
    expect(await found(store, 'alpha')).toEqual([]);
    expect(await found(store, 'charlie')).toEqual([recordKey(a.id)]);
    expect(await found(store, 'trading')).toEqual([recordKey(a.id), recordKey(b.id)]);
    await store.writeBatch([write({ ...b, name: 'Delta Shipping' }, '2024-01-03T00:00:00Z'), write({ ...a, name: 'Echo Shipping' }, '2024-01-03T00:00:00Z')]);
    expect(await found(store, 'trading')).toEqual([]);
    expect(await found(store, 'shipping')).toEqual([recordKey(a.id), recordKey(b.id)]);
    expect(await found(store, 'charlie')).toEqual([]);
    if (store instanceof SqliteStore) {
      // FTS5's own check: its index agrees with its rows, one per company.
      store.db.prepare("INSERT INTO company_search (company_search) VALUES ('integrity-check')").run();
      expect(store.db.prepare('SELECT count(*) AS n FROM company_search').get()).toEqual({ n: 2 });
    }
  });

  it('finds an identifier stored without separators by a query written with them, and the reverse', async () => {
    const compact: CompanySpec = { id: numberedId(3), project: P, name: 'Foxtrot Holdings', registrationNumber: 'SG809927136' };
    const spaced: CompanySpec = { id: numberedId(4), project: P, name: 'Golf Holdings', registrationNumber: 'HRB 555-777' };
    await store.writeBatch([write(compact, '2024-01-04T00:00:00Z'), write(spaced, '2024-01-04T00:00:00Z')]);
    for (const q of ['SG 809-927', 'sg 809 927 136', 'SG809927136', 'sg8099']) expect(await found(store, q), q).toEqual([recordKey(compact.id)]);
    for (const q of ['HRB 555-777', 'hrb555777', '555 777', '555777']) expect(await found(store, q), q).toEqual([recordKey(spaced.id)]);
    // Words of different companies never join into one: each word must still be in one company's text.
    expect(await found(store, 'foxtrot golf')).toEqual([]);
  });
});
