/** Copying a whole store SQLite → PostgreSQL → SQLite leaves every read answering the same. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { alertLine, companyLine, executionLine, individualLine } from '../support/records.js';
import { instantKey } from '../../src/contract/date-time.js';
import { recordKey } from '../../src/contract/record-key.js';
import { createApiKey, hashKey, verifyApiKey } from '../../src/store/api-keys.js';
import { importFiles } from '../../src/ingest/importer.js';
import { accessLogEntry } from '../support/access-log-entries.js';
import { batchesOf } from '../../src/access-log/batches.js';
import { copyStore, TargetNotEmptyError } from '../../src/store/copy-store.js';
import type { ExecutionFilter, ExecutionPosition, Store } from '../../src/store/store.js';
import { harness, type Harness } from '../support/store-harness.js';
import { companySpecLine } from '../support/companies.js';
import { postgresWanted } from '../support/stores.js';
import { customer, day, execution } from '../support/upserts.js';
import { feedSettled } from '../support/changes-feed.js';

const PROJECTS = ['proj-a', 'proj-b'];
const COMPANY = '0B5C2A4E-3D1F-4A6B-9C8D-7E6F5A4B3C2D';
const PERSON = '1b5c2a4e-3d1f-4a6b-9c8d-7e6f5a4b3c2d';
const GHOST = '2b5c2a4e-3d1f-4a6b-9c8d-7e6f5a4b3c2d';
const ALERTS = ['aa5c2a4e-3d1f-4a6b-9c8d-7e6f5a4b3c2d', 'ab5c2a4e-3d1f-4a6b-9c8d-7e6f5a4b3c2d'];
const NAMED_COMPANY = '4b5c2a4e-3d1f-4a6b-9c8d-7e6f5a4b3c2d';
/** Companies with a row on the company list: two per project. */
const COMPANIES = 4;
const CUSTOMERS = [COMPANY, PERSON, GHOST, '3b5c2a4e-3d1f-4a6b-9c8d-7e6f5a4b3c2d'];
const FILE_KEYS = ['f1e2d3c4-b5a6-4978-8a9b-0c1d2e3f4a5b', 'f2e2d3c4-b5a6-4978-8a9b-0c1d2e3f4a5b'];

const FILTERS: ExecutionFilter[] = [
  { order: 'desc' },
  { order: 'asc' },
  { order: 'desc', statuses: ['valid', 'error'] },
  { order: 'asc', scenarioId: 'scenario-1' },
  { order: 'desc', objectType: 'TFHE' },
  { order: 'asc', from: instantKey('2024-01-01T00:05:00Z'), to: instantKey('2024-01-01T00:20:00Z') },
  { order: 'desc', statuses: ['not-valid'], scenarioId: 'scenario-1', objectType: 'IndividualMonitoring' },
];

/** Every page of every filter, paged 7 at a time: orders, keyset positions and bytes. */
async function pages(store: Store, project: string, customerKey: string): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const filter of FILTERS) {
    let after: ExecutionPosition | undefined;
    for (;;) {
      const page = await store.listExecutions(project, customerKey, filter, after, 7);
      out.push(page);
      if (page.length < 7) break;
      after = page[page.length - 1]!;
    }
  }
  return out;
}

/** Everything a client can observe through the Store interface, in one comparable value. */
async function observe(store: Store, keys: string[]): Promise<unknown> {
  const seen: Record<string, unknown> = {};
  for (const p of PROJECTS) {
    for (const c of CUSTOMERS) {
      const k = recordKey(c);
      seen[`${p}/company/${c}`] = await store.getCompany(p, k);
      seen[`${p}/known/${c}`] = await store.customerKnown(p, k);
      seen[`${p}/executions/${c}`] = await pages(store, p, k);
    }
    for (const a of [...ALERTS, 'cb5c2a4e-3d1f-4a6b-9c8d-7e6f5a4b3c2d']) seen[`${p}/alert/${a}`] = await store.getAlert(p, recordKey(a));
    // The alert list: its summaries and the columns it filters and sorts by came across too.
    seen[`${p}/alert-list`] = await store.listAlerts(p, { sort: 'createdAt', order: 'asc' }, undefined, 100);
    seen[`${p}/alert-list/filtered`] = await store.listAlerts(p, { sort: 'updatedAt', order: 'desc', statuses: ['Under Investigation'], seen: false, assignedTo: null, customerKey: recordKey(COMPANY) }, undefined, 100);
    seen[`${p}/companies`] = await store.listCompanies(p, { order: 'desc' }, undefined, 200);
    // Relevance scores are each dialect's own: the keys found are compared, not their order.
    seen[`${p}/company-search`] = (await store.listCompanies(p, { order: 'desc', q: 'a' }, undefined, 200)).map((c) => c.key).sort();
    seen[`${p}/access-log`] = await store.queryAccessLog({ project: p, limit: 100 });
    seen[`${p}/access-log/${COMPANY}`] = await store.queryAccessLog({ project: p, recordId: recordKey(COMPANY), limit: 100 });
  }
  for (const key of keys) {
    seen[`key/${key}`] = await store.findApiKeyByHash(hashKey(key));
    seen[`verify/${key}`] = await verifyApiKey(store, key, Date.parse('2030-01-01T00:00:00Z'));
  }
  seen.keys = await store.listApiKeys();
  seen.secret = await store.secret();
  return seen;
}

describe.runIf(postgresWanted)('copying a store between SQLite and PostgreSQL', () => {
  const dir = mkdtempSync(join(tmpdir(), 'copy-test-'));
  const harnesses: Harness[] = [];
  const stores: Store[] = [];
  const open = async (h: Harness): Promise<Store> => {
    harnesses.push(h);
    const s = await h.open();
    stores.push(s);
    return s;
  };
  let source: Store;
  const keys: string[] = [];

  beforeAll(async () => {
    source = await open(harness('sqlite'));
    const lines: string[] = [];
    for (const p of PROJECTS) {
      lines.push(companyLine(p, COMPANY, FILE_KEYS[0]!), individualLine(p, PERSON));
      lines.push(companySpecLine({ id: NAMED_COMPANY, project: p, name: 'Acme Alpha', registrationNumber: 'A-1', status: 'Active', updatedAt: '2024-02-01T00:00:00Z' }));
      lines.push(alertLine(p, ALERTS[0]!, COMPANY, FILE_KEYS[1]!), alertLine(p, ALERTS[1]!, PERSON, FILE_KEYS[0]!));
      for (let i = 0; i < 40; i++) lines.push(executionLine(p, COMPANY, i));
      // Known only through its executions: no customer line at all.
      for (let i = 0; i < 9; i++) lines.push(executionLine(p, GHOST, i));
    }
    const file = join(dir, 'records.ndjson');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const summary = await importFiles(source, [file], { batchRecords: 13 });
    expect(summary).toMatchObject({ read: lines.length, stored: lines.length, rejected: 0 });
    keys.push((await createApiKey(source, { project: 'proj-a', name: 'reader' })).key);
    keys.push((await createApiKey(source, { project: 'proj-b', scopes: ['alerts:read'] })).key);
    const revoked = await createApiKey(source, { project: 'proj-a' });
    await source.revokeApiKey(revoked.record.id, day(5));
    keys.push(revoked.key);
    const company = recordKey(COMPANY);
    await source.appendAccessLog(batchesOf([accessLogEntry(1, company, 'proj-a'), accessLogEntry(2, company, 'proj-b'), accessLogEntry(3, null, 'proj-a')]));
    await source.appendAccessLog(batchesOf([accessLogEntry(4, company, 'proj-a'), accessLogEntry(5, recordKey(PERSON), 'proj-a')]));
  });
  afterAll(async () => {
    for (const s of stores) await s.close();
    for (const h of harnesses) await h.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A project's whole feed, its items as text in sorted order (a copy gives them new positions). */
  async function feedItems(store: Store, project: string): Promise<string[]> {
    return (await store.listChanges(project, undefined, 1000)).map((c) => c.body!.toString('utf8')).sort();
  }

  it('answers every read identically after SQLite → PostgreSQL → SQLite', async () => {
    const expected = await observe(source, keys);
    expect(expected).toMatchObject({ [`proj-a/known/${GHOST}`]: true, [`proj-a/company/${GHOST}`]: undefined });
    expect((expected as Record<string, unknown[]>)['proj-a/alert-list']).toHaveLength(2);
    expect((expected as Record<string, unknown[]>)['proj-a/alert-list/filtered']).toHaveLength(1);
    // Every filter finds something, so equal answers are not merely equally empty.
    for (const filter of FILTERS) {
      expect(await source.listExecutions('proj-a', recordKey(COMPANY), filter, undefined, 100)).not.toEqual([]);
    }
    expect(expected).toMatchObject({ 'proj-a/company-search': [recordKey(NAMED_COMPANY)] });
    const pg = await open(harness('postgres'));
    const there = await copyStore(source, pg, { chunkRows: 11 });
    expect(there).toEqual({ customers: 6, bareCustomers: 2, companies: COMPANIES, alerts: 4, executions: 98, apiKeys: 3, accessLogBatches: 3, changes: 108, erasures: 0, fileDeletions: 0 });
    expect(expected).toMatchObject({ [`proj-a/access-log/${COMPANY}`]: [{ requestId: 'r-proj-a-1' }, { requestId: 'r-proj-a-4' }] });
    expect(await observe(pg, keys)).toEqual(expected);
    // The copy caught the target's per-record table up with the batches it brought.
    expect(await pg.indexAccessLog()).toBe(0);
    const back = await open(harness('sqlite'));
    expect(await copyStore(pg, back, { chunkRows: 5 })).toEqual(there);
    expect(await observe(back, keys)).toEqual(expected);
    // The change feed travels as it is: each record's one entry, with its etag and changedAt.
    await feedSettled(harnesses.find((h) => h.name === 'postgres')!.url);
    for (const project of ['proj-a', 'proj-b']) {
      const feed = await feedItems(source, project);
      expect(feed.length).toBeGreaterThan(0);
      expect(await feedItems(pg, project)).toEqual(feed);
      expect(await feedItems(back, project)).toEqual(feed);
    }
  });

  it('refuses a target that holds records, and merges into it when forced', async () => {
    const target = await open(harness('postgres'));
    const theirs = customer('proj-a', 'theirs', day(1));
    // A newer version than the source's, and an execution whose scenarios the copy replaces.
    const newer = execution('proj-a', recordKey(COMPANY), 'exec-0001', day(9), { scenarioIds: ['scenario-x'] });
    await target.writeBatch([theirs, newer]);
    await expect(copyStore(source, target)).rejects.toBeInstanceOf(TargetNotEmptyError);
    expect(await target.secret()).not.toEqual(await source.secret());
    await copyStore(source, target, { force: true });
    expect(await target.getCompany('proj-a', 'theirs')).toBeDefined();
    const company = recordKey(COMPANY);
    expect(await target.listExecutions('proj-a', company, { order: 'desc', scenarioId: 'scenario-x' }, undefined, 5)).toEqual([]);
    expect(await pages(target, 'proj-a', company)).toEqual(await pages(source, 'proj-a', company));
    expect(await target.secret()).toEqual(await source.secret());
    // Forced again (as after a failed copy), the access log is not appended twice.
    await copyStore(source, target, { force: true });
    expect(await target.queryAccessLog({ project: 'proj-a', limit: 100 })).toEqual(await source.queryAccessLog({ project: 'proj-a', limit: 100 }));
  });

  it('fails as the target fails, leaving the secret alone and the source usable', async () => {
    const target = await open(harness('sqlite'));
    const before = await target.secret();
    let calls = 0;
    vi.spyOn(target, 'importRows').mockImplementation(async () => {
      if (++calls === 2) throw new Error('disk full');
    });
    await expect(copyStore(source, target, { chunkRows: 3 })).rejects.toThrow('disk full');
    expect(await target.secret()).toEqual(before);
    expect(await source.customerKnown('proj-a', GHOST)).toBe(true);
  });
});
