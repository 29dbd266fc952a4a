/** Erasure of a customer and retention prunes, on every store: what goes, what stays, what an older import can no longer bring back. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Change } from '../../src/contract/change.js';
import { instantKey } from '../../src/contract/date-time.js';
import { recordKey } from '../../src/contract/record-key.js';
import type { Store } from '../../src/store/store.js';
import { feedSettled, importLines } from '../support/changes-feed.js';
import { alertId, documentKey, personalAlertLine, personalCompanyLine, personalExecutionLine, personalHistory } from '../support/erasure-records.js';
import { storeHarnesses } from '../support/store-harness.js';
import { individualLine } from '../support/records.js';
import { copyStore } from '../../src/store/copy-store.js';
import { day, execution } from '../support/upserts.js';

const CUSTOMER = 'C0FFEE00-3D1F-4A6B-9C8D-7E6F5A4B3C2D';
const KEY = recordKey(CUSTOMER);
const OTHER = '0ddba11e-3d1f-4a6b-9c8d-7e6f5a4b3c2d';
let projects = 0;
const newProject = (): string => `erasure-${++projects}-${Date.now().toString(36)}`;

describe.each(storeHarnesses())('$adapter: erasure and retention', ({ make }) => {
  const harness = make();
  let store: Store;

  beforeAll(async () => {
    store = await harness.open();
  });
  afterAll(async () => {
    await store?.close();
    await harness.cleanup();
  });

  async function feed(project: string): Promise<Change[]> {
    await feedSettled(harness.url);
    const page = await store.listChanges(project, undefined, 1000);
    return page.map((c) => JSON.parse(c.body!.toString('utf8')) as Change);
  }
  const everything = { order: 'desc' } as const;

  it('removes the customer, its executions, its alerts, their list and search rows, and shows erase items in the feed', async () => {
    const p = newProject();
    await importLines(store, [...personalHistory(p, CUSTOMER, 3, 2), ...personalHistory(p, OTHER, 1, 1)]);
    expect(await store.getCompany(p, KEY)).toBeDefined();
    expect(await store.listCompanies(p, { order: 'desc', q: 'Quorvandel' }, undefined, 10)).toHaveLength(2);

    const erasure = await store.eraseCustomer(p, KEY, { dryRun: false });
    expect({ ...erasure, files: undefined }).toEqual({ customers: 1, executions: 3, alerts: 2, documents: 3, files: undefined });
    expect(erasure.files.map((f) => f.objectKey).sort()).toEqual([documentKey(CUSTOMER, 999), documentKey(CUSTOMER, 0), documentKey(CUSTOMER, 1)].sort());

    expect(await store.getCompany(p, KEY)).toBeUndefined();
    expect(await store.customerKnown(p, KEY)).toBe(false);
    expect(await store.listExecutions(p, KEY, everything, undefined, 50)).toEqual([]);
    expect(await store.getAlert(p, recordKey(alertId(CUSTOMER, 0)))).toBeUndefined();
    expect(await store.listAlerts(p, { sort: 'updatedAt', order: 'desc', customerKey: KEY }, undefined, 50)).toEqual([]);
    // The other customer, with the same name, is still listed and found; the erased one is not.
    const found = await store.listCompanies(p, { order: 'desc', q: 'Quorvandel' }, undefined, 10);
    expect(found.map((c) => c.key)).toEqual([OTHER]);
    expect((await store.listCompanies(p, everything, undefined, 10)).map((c) => c.key)).toEqual([OTHER]);
    expect(await store.listAlerts(p, { sort: 'updatedAt', order: 'desc' }, undefined, 50)).toHaveLength(1);

    const items = await feed(p);
    const erased = items.filter((c) => c.operation === 'erase');
    expect(erased).toHaveLength(6);
    expect(erased.every((c) => c.etag === null)).toBe(true);
    expect(erased.find((c) => c.kind === 'company')).toMatchObject({ id: CUSTOMER, customerId: null });
    expect(erased.filter((c) => c.kind === 'execution').every((c) => c.customerId === CUSTOMER)).toBe(true);
    expect(erased.filter((c) => c.kind === 'alert').map((c) => c.id).sort()).toEqual([alertId(CUSTOMER, 0), alertId(CUSTOMER, 1)].sort());
    // One entry per record still: the erased records' upserts are gone, the other customer's remain.
    expect(items.filter((c) => c.operation === 'upsert').every((c) => c.id === OTHER || c.customerId === OTHER)).toBe(true);
    for (const c of erased) expect(JSON.stringify(c)).not.toMatch(/Quorvandel|QXZ|Yselmarth|Vantrobel/);
  });

  it('refuses an older or equal version of an erased record as stale, and accepts a newer one', async () => {
    const p = newProject();
    const old = personalHistory(p, CUSTOMER, 2, 1);
    await importLines(store, old);
    await store.eraseCustomer(p, KEY, { dryRun: false });
    const again = await importLines(store, old);
    expect(again).toMatchObject({ stored: 0, stale: old.length });
    expect(await store.customerKnown(p, KEY)).toBe(false);
    expect(await store.getAlert(p, recordKey(alertId(CUSTOMER, 0)))).toBeUndefined();
    // An alert moved to another customer is still the erased alert: its tombstone refuses it too.
    expect(await importLines(store, [personalAlertLine(p, alertId(CUSTOMER, 0), OTHER, documentKey(OTHER, 1))])).toMatchObject({ stale: 1 });

    // Onboarded again: versions after the erasure are a new customer's records.
    const later = new Date(Date.now() + 60_000).toISOString();
    const newer = [personalCompanyLine(p, CUSTOMER, documentKey(CUSTOMER, 7), later), personalAlertLine(p, alertId(CUSTOMER, 5), CUSTOMER, documentKey(CUSTOMER, 8), later)];
    expect(await importLines(store, newer)).toMatchObject({ stored: 2, stale: 0 });
    expect(await store.getCompany(p, KEY)).toBeDefined();
    // Executions are versioned by last_execution_date: those of 2024 stay refused.
    expect(await importLines(store, [personalExecutionLine(p, CUSTOMER, 7)])).toMatchObject({ stale: 1 });
    const items = await feed(p);
    expect(items.find((c) => c.kind === 'company')).toMatchObject({ operation: 'upsert', id: CUSTOMER });
  });

  it('refuses the erased bytes sent again when they were dated ahead of the erasure', async () => {
    const p = newProject();
    const ahead = new Date(Date.now() + 3_600_000).toISOString();
    const lines = [personalCompanyLine(p, CUSTOMER, documentKey(CUSTOMER, 999), ahead), personalAlertLine(p, alertId(CUSTOMER, 0), CUSTOMER, documentKey(CUSTOMER, 0), ahead)];
    expect(await importLines(store, lines)).toMatchObject({ stored: 2 });
    await store.eraseCustomer(p, KEY, { dryRun: false });
    expect(await importLines(store, lines)).toMatchObject({ stored: 0, stale: 2 });
    expect(await store.customerKnown(p, KEY)).toBe(false);
    expect(await store.getAlert(p, recordKey(alertId(CUSTOMER, 0)))).toBeUndefined();
  });

  it('erases an individual customer and one known only from its executions alike', async () => {
    const p = newProject();
    await importLines(store, [individualLine(p, CUSTOMER), personalExecutionLine(p, OTHER, 1), personalExecutionLine(p, OTHER, 2)]);
    expect(await store.eraseCustomer(p, KEY, { dryRun: false })).toMatchObject({ customers: 1, executions: 0, alerts: 0 });
    expect(await store.eraseCustomer(p, OTHER, { dryRun: false })).toMatchObject({ customers: 0, executions: 2, alerts: 0 });
    expect(await store.customerKnown(p, KEY)).toBe(false);
    expect(await store.customerKnown(p, OTHER)).toBe(false);
    const items = await feed(p);
    expect(items.find((c) => c.id === CUSTOMER)).toMatchObject({ kind: 'customer', operation: 'erase', etag: null });
    expect(items.filter((c) => c.kind === 'execution').every((c) => c.operation === 'erase')).toBe(true);
    expect(await importLines(store, [personalExecutionLine(p, OTHER, 1)])).toMatchObject({ stale: 1 });
    expect(await store.customerKnown(p, OTHER)).toBe(false);
  });

  it('changes nothing in a dry run, and only counts', async () => {
    const p = newProject();
    await importLines(store, personalHistory(p, CUSTOMER, 2, 1));
    const before = await feed(p);
    const dry = await store.eraseCustomer(p, KEY, { dryRun: true });
    expect(dry).toEqual({ customers: 1, executions: 2, alerts: 1, documents: 2, files: [] });
    expect(await store.getCompany(p, KEY)).toBeDefined();
    expect(await store.listExecutions(p, KEY, everything, undefined, 50)).toHaveLength(2);
    expect(await feed(p)).toEqual(before);
    // No tombstone either: the same lines import as unchanged, not stale.
    expect(await importLines(store, personalHistory(p, CUSTOMER, 2, 1))).toMatchObject({ unchanged: 4, stale: 0 });
  });

  it("touches only the project it is given: another project's customer of the same id stays whole", async () => {
    const a = newProject();
    const b = newProject();
    await importLines(store, [...personalHistory(a, CUSTOMER, 1, 1), ...personalHistory(b, CUSTOMER, 2, 1)]);
    await store.eraseCustomer(a, KEY, { dryRun: false });
    expect(await store.getCompany(b, KEY)).toBeDefined();
    expect(await store.listExecutions(b, KEY, everything, undefined, 50)).toHaveLength(2);
    expect(await store.getAlert(b, recordKey(alertId(CUSTOMER, 0)))).toBeDefined();
    expect((await feed(b)).every((c) => c.operation === 'upsert')).toBe(true);
    expect(await importLines(store, personalHistory(b, CUSTOMER, 2, 1))).toMatchObject({ unchanged: 4, stale: 0 });
  });

  it('is idempotent: erasing again finds nothing and hands back the files still pending until they are forgotten', async () => {
    const p = newProject();
    await importLines(store, personalHistory(p, CUSTOMER, 1, 1));
    const first = await store.eraseCustomer(p, KEY, { dryRun: false });
    expect(first.files).toHaveLength(2);
    const second = await store.eraseCustomer(p, KEY, { dryRun: false });
    expect(second).toMatchObject({ customers: 0, executions: 0, alerts: 0, documents: 0 });
    expect(second.files).toEqual(expect.arrayContaining(first.files));
    await store.forgetFileDeletions(first.files);
    expect((await store.eraseCustomer(p, KEY, { dryRun: false })).files).toEqual([]);
  });

  it('carries tombstones and pending file deletions through a copy: the target refuses the older import too', async () => {
    const p = newProject();
    const old = personalHistory(p, CUSTOMER, 1, 1);
    await importLines(store, old);
    const erased = await store.eraseCustomer(p, KEY, { dryRun: false });
    const target = make();
    const copy = await target.open();
    try {
      const counts = await copyStore(store, copy, { force: true });
      expect(counts.erasures).toBeGreaterThanOrEqual(2);
      expect(counts.fileDeletions).toBeGreaterThanOrEqual(2);
      expect(await importLines(copy, old)).toMatchObject({ stored: 0, stale: old.length });
      expect((await copy.eraseCustomer(p, KEY, { dryRun: false })).files).toEqual(expect.arrayContaining(erased.files));
    } finally {
      await copy.close();
      await target.cleanup();
    }
  });

  it('prunes past its chunk of 1,000 records, in as many transactions as it takes', async () => {
    const own = make();
    const s = await own.open();
    try {
      const p = newProject();
      const runs = Array.from({ length: 2100 }, (_, i) => execution(p, 'c', `e${i}`, i % 2 === 0 ? day(1) : day(3)));
      await s.writeBatch(runs);
      expect((await s.pruneRecords('executions', day(2), { dryRun: true })).records).toBe(1050);
      expect((await s.pruneRecords('executions', day(2), { dryRun: false })).records).toBe(1050);
      expect((await s.pruneRecords('executions', day(4), { dryRun: true })).records).toBe(1050);
    } finally {
      await s.close();
      await own.cleanup();
    }
  });

  it('prunes executions and alerts before a date, with their list, scenario and feed rows, counting first in a dry run', async () => {
    // A store of its own: a prune covers every project.
    const own = make();
    const previous = store;
    store = await own.open();
    try {
    const p = newProject();
    // Executions 0..9 run on 2024-01-01 at minutes 0..4; alerts updated in March 2024 and 2025.
    await importLines(store, [
      personalCompanyLine(p, CUSTOMER, documentKey(CUSTOMER, 999)),
      ...Array.from({ length: 10 }, (_, i) => personalExecutionLine(p, CUSTOMER, i)),
      personalAlertLine(p, alertId(CUSTOMER, 0), CUSTOMER, documentKey(CUSTOMER, 0), '2024-03-02T00:00:00Z'),
      personalAlertLine(p, alertId(CUSTOMER, 1), CUSTOMER, documentKey(CUSTOMER, 1), '2025-03-02T00:00:00Z'),
    ]);
    const cut = instantKey('2024-01-01T00:03:00Z');
    expect(await store.pruneRecords('executions', cut, { dryRun: true })).toMatchObject({ records: 6, files: [] });
    expect(await store.listExecutions(p, KEY, everything, undefined, 50)).toHaveLength(10);
    expect(await store.pruneRecords('executions', cut, { dryRun: false })).toMatchObject({ records: 6 });
    const left = await store.listExecutions(p, KEY, everything, undefined, 50);
    expect(left.map((e) => e.executionId).sort()).toEqual(['exec-0006', 'exec-0007', 'exec-0008', 'exec-0009']);
    expect((await store.listExecutions(p, KEY, { order: 'desc', scenarioId: 'scenario-0' }, undefined, 50)).map((e) => e.executionId)).toEqual(['exec-0009', 'exec-0006']);

    const alertCut = instantKey('2025-01-01T00:00:00Z');
    expect(await store.pruneRecords('alerts', alertCut, { dryRun: true })).toMatchObject({ records: 1, documents: 1 });
    const pruned = await store.pruneRecords('alerts', alertCut, { dryRun: false });
    expect(pruned.records).toBe(1);
    expect(pruned.files).toContainEqual({ project: p, objectKey: documentKey(CUSTOMER, 0) });
    expect((await store.listAlerts(p, { sort: 'updatedAt', order: 'desc' }, undefined, 50)).length).toBe(1);
    expect(await store.getCompany(p, KEY)).toBeDefined();

    const items = await feed(p);
    expect(items.filter((c) => c.operation === 'erase').map((c) => c.id).sort()).toEqual([alertId(CUSTOMER, 0), 'exec-0000', 'exec-0001', 'exec-0002', 'exec-0003', 'exec-0004', 'exec-0005'].sort());
    // Retention leaves no tombstone: a pruned record imported again is stored again (and pruned by the next run).
    expect(await importLines(store, [personalExecutionLine(p, CUSTOMER, 0)])).toMatchObject({ stored: 1 });
    } finally {
      await store.close();
      await own.cleanup();
      store = previous;
    }
  });
});
