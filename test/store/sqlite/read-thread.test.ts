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
import { alert, customer, newProject } from '../../support/upserts.js';
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

describe('record reads on the SQLite read thread', () => {
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
