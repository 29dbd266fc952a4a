/** An import prepares each company's list row where it prepares the record, in worker threads too. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { recordKey } from '../../src/contract/record-key.js';
import { importFiles } from '../../src/ingest/importer.js';
import { render } from '../../src/wire/render.js';
import { companySpecLine, numberedId, summaryOfSpec, type CompanySpec } from '../support/companies.js';
import { openTestStore, type TestStore } from '../support/store-harness.js';

const specs: CompanySpec[] = Array.from({ length: 40 }, (_, i) => ({
  id: numberedId(i),
  project: 'proj-a',
  name: `Worker Made ${i}`,
  registrationNumber: `RN-${i}`,
  updatedAt: new Date(Date.UTC(2024, 0, 1, 0, i)).toISOString(),
}));

const opened: TestStore[] = [];
afterAll(async () => {
  for (const t of opened) {
    await t.store.close();
    await t.cleanup();
  }
});

describe('company list rows of an import', () => {
  it.each([0, 2])('are the summaries, with gzip pieces, when prepared by %i workers', async (workers) => {
    const dir = mkdtempSync(join(tmpdir(), 'crs-listing-'));
    const t = await openTestStore(dir);
    opened.push(t);
    const file = join(dir, 'in.ndjson');
    writeFileSync(file, specs.map(companySpecLine).join('\n') + '\n');
    expect((await importFiles(t.store, [file], { workers })).stored).toBe(specs.length);
    const page = await t.store.listCompanies('proj-a', { order: 'asc' }, undefined, 100);
    expect(page.map((c) => c.key)).toEqual(specs.map((s) => recordKey(s.id)));
    page.forEach((c, i) => {
      expect(Buffer.isBuffer(c.body) && Buffer.isBuffer(c.deflated)).toBe(true);
      expect(c.body!.toString()).toBe(JSON.stringify(summaryOfSpec(specs[i]!)));
    });
    const gzip = (await render(page, 'gzip')).bytes;
    expect(gunzipSync(gzip).toString()).toBe(JSON.stringify(specs.map(summaryOfSpec)));
    expect((await t.store.listCompanies('proj-a', { order: 'desc', q: 'rn7' }, undefined, 10)).map((c) => c.key)).toEqual([recordKey(specs[7]!.id)]);
    rmSync(file);
  });
});
