/**
 * Values past what a store's index entries hold: a keyed value over its bound is a rejected line
 * with a reason on every store alike, and a company name of more words than are indexed is stored
 * whole and found by its first words; the lines around them are stored either way.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_KEYED_BYTES } from '../../src/contract/keyed-text.js';
import { recordKey } from '../../src/contract/record-key.js';
import type { Store } from '../../src/store/store.js';
import { importLines } from '../support/changes-feed.js';
import { alertLine, companyLine, executionLine } from '../support/records.js';
import { storeHarnesses } from '../support/store-harness.js';

const P = 'proj-bounds';
const C = '0b5c2a4e-3d1f-4a6b-9c8d-7e6f5a4b3c2d';
const WORDY = '1b5c2a4e-3d1f-4a6b-9c8d-7e6f5a4b3c2d';
const A = 'aa5c2a4e-3d1f-4a6b-9c8d-7e6f5a4b3c2d';
const DOC = 'f1e2d3c4-b5a6-4978-8a9b-0c1d2e3f4a5b';

function withRecord(line: string, change: (record: Record<string, unknown>) => void): string {
  const parsed = JSON.parse(line) as { record: Record<string, unknown> };
  change(parsed.record);
  return JSON.stringify(parsed);
}

describe.each(storeHarnesses())('$adapter: values past what an index entry holds', ({ make }) => {
  const harness = make();
  let store: Store;
  beforeAll(async () => {
    store = await harness.open();
  });
  afterAll(async () => {
    await store?.close();
    await harness.cleanup();
  });

  it('rejects a line whose execution id, scenario id or assignee is past the bound, naming the field, and stores the lines around it', async () => {
    const longId = executionLine(P, C, 3).replace(/exec-0003/g, 'x'.repeat(MAX_KEYED_BYTES + 1));
    const longScenario = executionLine(P, C, 4).replace(/"scenario-1"/g, `"${'s'.repeat(MAX_KEYED_BYTES + 1)}"`);
    // Fewer characters than the bound, more bytes: the bound is in UTF-8 bytes.
    const longAssignee = withRecord(alertLine(P, A, C, DOC), (r) => (r.assignedTo = 'é'.repeat(MAX_KEYED_BYTES / 2 + 1)));
    const fitting = withRecord(alertLine(P, A, C, DOC), (r) => (r.assignedTo = 'é'.repeat(MAX_KEYED_BYTES / 2)));
    const summary = await importLines(store, [companyLine(P, C, DOC), executionLine(P, C, 1), longId, longScenario, longAssignee, executionLine(P, C, 2)]);
    expect(summary).toMatchObject({ stored: 3, rejected: 3 });
    const page = await store.listExecutions(P, recordKey(C), { order: 'asc' }, undefined, 10);
    expect(page.map((e) => e.executionId)).toEqual(['exec-0001', 'exec-0002']);
    expect(await store.getAlert(P, recordKey(A))).toBeUndefined();
    expect(await importLines(store, [fitting])).toMatchObject({ stored: 1, rejected: 0 });
  });

  it('stores a company named with more words than are indexed, serves it whole, and finds it by its first words', async () => {
    const words = Array.from({ length: 80_000 }, (_, i) => `w${i.toString(36)}`).join(' ');
    const name = `Quillmarsh ${words}`;
    const line = withRecord(companyLine(P, WORDY, DOC), (r) => (r.companyClaims = [{ companyName: name, registrationNumber: 'HRB 1', country: 'DEU' }]));
    expect(await importLines(store, [line, companyLine(P, C, DOC)])).toMatchObject({ stored: 1, rejected: 0 });
    const served = await store.getCompany(P, recordKey(WORDY));
    expect(served?.body?.toString('utf8')).toContain(name);
    const found = await store.listCompanies(P, { order: 'desc', q: 'quillmarsh' }, undefined, 10);
    expect(found.map((c) => c.key)).toEqual([recordKey(WORDY)]);
  });
});
