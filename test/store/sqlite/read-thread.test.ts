import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { ALL_FIELDS } from '../../../src/wire/record-bytes.js';
import { fieldsFor } from '../../../src/wire/render.js';
import { damageSqliteFile } from '../../support/damaged-sqlite.js';
import { StoreUnavailableError } from '../../../src/store/store-errors.js';
import { alert, customer, day, execution, newProject } from '../../support/upserts.js';
import { importLines } from '../../support/changes-feed.js';
import { companySpecLine, numberedId } from '../../support/companies.js';
import { SqliteReadThread } from '../../../src/store/sqlite/read-thread.js';
import { openSqliteStore, type SqliteStore } from '../../../src/store/sqlite/sqlite-store.js';

const IDENTITY = fieldsFor('identity');
const GZIP = fieldsFor('gzip');

let dir: string;
const opened: { close(): Promise<void> }[] = [];

function tempFile(): string {
  dir = mkdtempSync(join(tmpdir(), 'crs-rt-'));
  return join(dir, 'store.db');
}

async function open(file: string, readThread: boolean): Promise<SqliteStore> {
  const store = await openSqliteStore(file, { readThread });
  opened.push(store);
  return store;
}

afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('record reads and searches on the SQLite read threads', () => {
  it('gives the same rows, blobs as Buffers, as the serving connection reads', async () => {
    const file = tempFile();
    const threaded = await open(file, true);
    const direct = await open(file, false);
    const p = newProject();
    await threaded.writeBatch([customer(p, 'c1', '1'), alert(p, 'a1', '1')]);
    for (const need of [IDENTITY, GZIP, ALL_FIELDS]) {
      const [tc, dc] = [await threaded.getCompany(p, 'c1', need), await direct.getCompany(p, 'c1', need)];
      const [ta, da] = [await threaded.getAlert(p, 'a1', need), await direct.getAlert(p, 'a1', need)];
      expect(tc).toEqual(dc);
      expect(ta).toEqual(da);
      expect(tc!.body === null || Buffer.isBuffer(tc!.body)).toBe(true);
      expect(tc!.deflated === null || Buffer.isBuffer(tc!.deflated)).toBe(true);
    }
    expect(Buffer.isBuffer((await threaded.getCompany(p, 'c1', IDENTITY))!.body)).toBe(true);
  });

  it('sees a write committed just before the read', async () => {
    const store = await open(tempFile(), true);
    const p = newProject();
    await store.writeBatch([customer(p, 'c1', '1', true, 'first')]);
    expect((await store.getCompany(p, 'c1', IDENTITY))!.body!.toString()).toContain('first');
    await store.writeBatch([customer(p, 'c1', '2', true, 'second')]);
    expect((await store.getCompany(p, 'c1', IDENTITY))!.body!.toString()).toContain('second');
  });

  it('answers many reads of one turn, each with its own row, and a missing id with undefined', async () => {
    const store = await open(tempFile(), true);
    const p = newProject();
    await store.writeBatch(Array.from({ length: 40 }, (_, i) => customer(p, `c${i}`, '1', true, `note-${i}-end`)));
    const reads = await Promise.all([...Array.from({ length: 40 }, (_, i) => store.getCompany(p, `c${i}`, IDENTITY)), store.getCompany(p, 'missing', IDENTITY)]);
    reads.slice(0, 40).forEach((r, i) => expect(r!.body!.toString()).toContain(`note-${i}-end`));
    expect(reads[40]).toBeUndefined();
  });

  it('reads on the serving connection again once the thread has stopped', async () => {
    const store = await open(tempFile(), true);
    const p = newProject();
    await store.writeBatch([customer(p, 'c1', '1', true, 'kept')]);
    expect(await store.getCompany(p, 'c1', IDENTITY)).toBeDefined();
    await (store as unknown as { readThread: SqliteReadThread }).readThread.close();
    expect((await store.getCompany(p, 'c1', IDENTITY))!.body!.toString()).toContain('kept');
  });

  it('refuses a failing statement with the SQLite error, and every read once closed', async () => {
    const file = tempFile();
    await open(file, false); // creates and migrates the file
    const thread = new SqliteReadThread(file);
    await expect(thread.get('SELECT * FROM no_such_table', [])).rejects.toMatchObject({ message: expect.stringContaining('no such table'), code: 'SQLITE_ERROR' });
    expect(await thread.get('SELECT 1 AS one', [])).toEqual({ one: 1 });
    await thread.close();
    expect(thread.usable).toBe(false);
    await expect(thread.get('SELECT 1', [])).rejects.toThrow(/closed/);
  });

  it('answers a read of a damaged file with the store unavailable error, as the serving connection does', async () => {
    const file = tempFile();
    const threaded = await open(file, true);
    const direct = await open(file, false);
    const p = newProject();
    await threaded.writeBatch([customer(p, 'c1', '1')]);
    expect(await threaded.getCompany(p, 'c1')).toBeDefined();
    damageSqliteFile(file);
    await expect(threaded.getCompany(p, 'c1', IDENTITY)).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(threaded.getAlert(p, 'a1', GZIP)).rejects.toThrow(/getAlert failed: the SQLite file is damaged \(SQLITE_CORRUPT\)/);
    await expect(direct.getCompany(p, 'c1', IDENTITY)).rejects.toBeInstanceOf(StoreUnavailableError);
  });

  it('gives the same search pages on the scan thread as the serving connection, cursor and filters included', async () => {
    const file = tempFile();
    const threaded = await open(file, true);
    const direct = await open(file, false);
    const p = newProject();
    const names = ['Acme Exchange Ltd', 'Acme Capital', 'Société Acme', 'Northwind Acme Trading', 'Other Holdings'];
    const lines = Array.from({ length: 60 }, (_, i) =>
      companySpecLine({ id: numberedId(i), project: p, name: `${names[i % names.length]} ${i}`, registrationNumber: `HRB ${i}-7`, status: i % 2 === 0 ? 'Active' : 'Dormant' }),
    );
    await importLines(threaded, lines);
    for (const filter of [{ order: 'desc' as const, q: 'acme' }, { order: 'desc' as const, q: 'acme', statuses: ['Active'] }, { order: 'desc' as const, q: 'hrb 12' }, { order: 'desc' as const, q: 'zzz' }]) {
      for (const fields of [IDENTITY, GZIP]) {
        const first = await threaded.listCompanies(p, filter, undefined, 7, fields);
        expect(first).toEqual(await direct.listCompanies(p, filter, undefined, 7, fields));
        const last = first.at(-1);
        if (last === undefined) continue;
        const after = { sortKey: last.sortKey, key: last.key };
        expect(await threaded.listCompanies(p, filter, after, 7, fields)).toEqual(await direct.listCompanies(p, filter, after, 7, fields));
      }
    }
    const page = await threaded.listCompanies(p, { order: 'desc', q: 'acme' }, undefined, 100, IDENTITY);
    expect(page).toHaveLength(48);
    expect(Buffer.isBuffer(page[0]!.body)).toBe(true);
  });

  it('reads pages that scan on the scan thread, with the serving connection\'s answers, and bounded pages on the serving connection', async () => {
    const file = tempFile();
    const threaded = await open(file, true);
    const direct = await open(file, false);
    const p = newProject();
    const statuses = ['Open', 'Closed', 'Pending'];
    await threaded.writeBatch([
      ...Array.from({ length: 30 }, (_, i) => alert(p, `a${i}`, day(1 + (i % 9)), `n${i}`, { status: statuses[i % 3]!, seen: i % 2 === 0, customerKey: `c${i % 4}` })),
      ...Array.from({ length: 30 }, (_, i) => execution(p, 'c1', `e${i}`, `${day(1 + (i % 9))}-${i}`, { status: i % 5 === 0 ? 'Failed' : 'Passed' })),
    ]);
    const scanThread = (): unknown => (threaded as unknown as { scanThread?: SqliteReadThread }).scanThread;
    // Bounded ranges: nothing starts the scan thread.
    expect(await threaded.listAlerts(p, { sort: 'updatedAt', order: 'desc', customerKey: 'c1' }, undefined, 5, IDENTITY)).toEqual(
      await direct.listAlerts(p, { sort: 'updatedAt', order: 'desc', customerKey: 'c1' }, undefined, 5, IDENTITY),
    );
    expect(await threaded.listExecutions(p, 'c1', { order: 'asc' }, undefined, 5, GZIP)).toEqual(await direct.listExecutions(p, 'c1', { order: 'asc' }, undefined, 5, GZIP));
    expect(await threaded.listCompanies(p, { order: 'desc' }, undefined, 5, IDENTITY)).toEqual([]);
    expect(scanThread()).toBeUndefined();
    const alerts = { sort: 'createdAt' as const, order: 'desc' as const, statuses: ['Closed', 'Pending'], seen: true };
    const first = await threaded.listAlerts(p, alerts, undefined, 4, IDENTITY);
    expect(scanThread()).toBeDefined();
    expect(first).toEqual(await direct.listAlerts(p, alerts, undefined, 4, IDENTITY));
    expect(first).toHaveLength(4);
    const after = { sortKey: first.at(-1)!.sortKey, alertKey: first.at(-1)!.alertKey };
    expect(await threaded.listAlerts(p, alerts, after, 4, GZIP)).toEqual(await direct.listAlerts(p, alerts, after, 4, GZIP));
    expect(await threaded.countAlerts(p, { seen: true })).toEqual(await direct.countAlerts(p, { seen: true }));
    expect([...(await threaded.countAlerts(p, {})).values()].reduce((a, b) => a + b, 0)).toBe(30);
    const failed = await threaded.listExecutions(p, 'c1', { order: 'desc', statuses: ['Failed'] }, undefined, 50, IDENTITY);
    expect(failed).toEqual(await direct.listExecutions(p, 'c1', { order: 'desc', statuses: ['Failed'] }, undefined, 50, IDENTITY));
    expect(failed.map((e) => e.executionId).sort()).toEqual(['e0', 'e10', 'e15', 'e20', 'e25', 'e5']);
  });

  it('searches on the serving connection again once the scan thread has stopped, and on a damaged file answers unavailable', async () => {
    const file = tempFile();
    const store = await open(file, true);
    const p = newProject();
    await importLines(store, [companySpecLine({ id: numberedId(1), project: p, name: 'Kept Company' })]);
    expect(await store.listCompanies(p, { order: 'desc', q: 'kept' }, undefined, 10, IDENTITY)).toHaveLength(1);
    await (store as unknown as { scanThread: SqliteReadThread }).scanThread.close();
    expect(await store.listCompanies(p, { order: 'desc', q: 'kept' }, undefined, 10, IDENTITY)).toHaveLength(1);
    const other = await open(join(dir, 'other.db'), true);
    await importLines(other, [companySpecLine({ id: numberedId(1), project: p, name: 'Kept Company' })]);
    expect(await other.listCompanies(p, { order: 'desc', q: 'kept' }, undefined, 10, IDENTITY)).toHaveLength(1);
    damageSqliteFile(join(dir, 'other.db'));
    await expect(other.listCompanies(p, { order: 'desc', q: 'company' }, undefined, 10, IDENTITY)).rejects.toBeInstanceOf(StoreUnavailableError);
  });

  it('answers every row of a statement with all, blobs as Buffers', async () => {
    const file = tempFile();
    await open(file, false); // creates and migrates the file
    const thread = new SqliteReadThread(file);
    try {
      const [a, b] = await Promise.all([thread.all("SELECT 1 AS n, x'0102' AS b UNION ALL SELECT 2, x'03'", []), thread.all("SELECT 1 AS n, x'0102' AS b UNION ALL SELECT 2, x'03'", [])]);
      expect(a).toEqual([{ n: 1, b: Buffer.from([1, 2]) }, { n: 2, b: Buffer.from([3]) }]);
      expect(Buffer.isBuffer((a![0] as { b: unknown }).b)).toBe(true);
      expect(a).not.toBe(b);
      expect(await thread.all('SELECT 1 WHERE 0', [])).toEqual([]);
      expect(await thread.get("SELECT 1 AS n UNION ALL SELECT 2", [])).toEqual({ n: 1 });
    } finally {
      await thread.close();
    }
  });

  it('keeps a process alive while a read is in flight, and lets it exit once idle', async () => {
    const file = tempFile();
    await open(file, false); // creates and migrates the file
    const module = fileURLToPath(new URL('../../../src/store/sqlite/read-thread.ts', import.meta.url));
    // Nothing else holds this process open: without the thread's hold it would exit before the answer.
    const script = `import { SqliteReadThread } from ${JSON.stringify(module)};
      new SqliteReadThread(${JSON.stringify(file)}).get('SELECT 41 + 1 AS answer', []).then((r) => console.log(JSON.stringify(r)));`;
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 30_000 });
    expect(out.trim()).toBe('{"answer":42}');
  });
});
