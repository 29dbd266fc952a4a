/** Every demo record goes through import and the store and comes back equal, unknown fields included. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordKey } from '../../src/contract/record-key.js';
import { generateDemo } from '../../src/demo/index.js';
import { importFiles } from '../../src/ingest/importer.js';
import type { ImportSummary } from '../../src/ingest/import-summary.js';
import type { Store } from '../../src/store/store.js';
import { fieldsFor } from '../../src/wire/render.js';
import { openTestStore, type TestStore } from '../support/store-harness.js';

const OPTIONS = { seed: 7, companies: 12, individuals: 6, alerts: 30, heavyCustomerExecutions: 300 };
const lines = [...generateDemo(OPTIONS)];
let ts: TestStore;
let store: Store;
let input: string;
let first: ImportSummary;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'crs-demo-'));
  input = join(dir, 'demo.ndjson');
  writeFileSync(input, lines.join('\n') + '\n');
  ts = await openTestStore(dir);
  store = ts.store;
  first = await importFiles(store, [input]);
});
afterAll(async () => {
  await store?.close();
  await ts?.cleanup();
});

interface Env {
  kind: 'customer' | 'execution' | 'alert';
  customerId?: string;
  cmsProjectId?: string;
  record: { id?: string; cmsProjectId?: string; type?: string; execution_id?: string };
}

describe('the demo data set', () => {
  it('imports with nothing rejected, and again with everything unchanged', async () => {
    expect(first).toMatchObject({ read: lines.length, stored: lines.length, rejected: 0, stale: 0 });
    expect(first.warnings).toBeGreaterThan(0); // the demo carries a few fields outside the contract
    expect(await importFiles(store, [input])).toMatchObject({ read: lines.length, stored: 0, unchanged: lines.length, rejected: 0 });
  });

  it('reads every company and alert back byte for byte', async () => {
    let n = 0;
    for (const line of lines) {
      const env = JSON.parse(line) as Env;
      const recordText = JSON.stringify(env.record);
      if (env.kind === 'customer') {
        const got = await store.getCompany(env.record.cmsProjectId!, recordKey(env.record.id!));
        if (env.record.type === 'Company') {
          expect(got!.body!.toString()).toBe(recordText);
          n++;
        } else {
          expect(got).toBeUndefined();
          expect(await store.customerKnown(env.record.cmsProjectId!, recordKey(env.record.id!))).toBe(true);
        }
      } else if (env.kind === 'alert') {
        expect((await store.getAlert(env.record.cmsProjectId!, recordKey(env.record.id!)))!.body!.toString()).toBe(recordText);
        n++;
      }
    }
    expect(n).toBeGreaterThan(50);
  });

  it('reads every execution back byte for byte through the pages of its customer', async () => {
    const expected = new Map<string, Map<string, string>>();
    for (const line of lines) {
      const env = JSON.parse(line) as Env;
      if (env.kind !== 'execution') continue;
      const k = `${env.cmsProjectId}\n${recordKey(env.customerId!)}`;
      const m = expected.get(k) ?? new Map<string, string>();
      m.set(env.record.execution_id!, JSON.stringify(env.record));
      expected.set(k, m);
    }
    for (const [k, m] of expected) {
      const [project, customer] = k.split('\n') as [string, string];
      const got = new Map<string, string>();
      let after;
      for (;;) {
        const page = await store.listExecutions(project, customer, { order: 'asc' }, after, 200, fieldsFor('identity'));
        for (const e of page) got.set(e.executionId, e.body!.toString());
        if (page.length < 200) break;
        after = page[page.length - 1]!;
      }
      expect(got).toEqual(m);
    }
  });
});

describe('the import with worker threads', () => {
  it('stores exactly what the single-threaded import stores', async () => {
    const other = await openTestStore();
    try {
      const summary = await importFiles(other.store, [input], { workers: 2 });
      expect(summary).toEqual(first);
      for (const line of lines) {
        const env = JSON.parse(line) as Env;
        if (env.kind === 'alert') {
          const a = await store.getAlert(env.record.cmsProjectId!, recordKey(env.record.id!));
          const b = await other.store.getAlert(env.record.cmsProjectId!, recordKey(env.record.id!));
          expect(b).toEqual(a);
        } else if (env.kind === 'customer' && env.record.type === 'Company') {
          expect(await other.store.getCompany(env.record.cmsProjectId!, recordKey(env.record.id!))).toEqual(await store.getCompany(env.record.cmsProjectId!, recordKey(env.record.id!)));
        }
      }
    } finally {
      await other.store.close();
      await other.cleanup();
    }
  });
});
