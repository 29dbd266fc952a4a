/** Files the service writes hold personal data: they are its user's alone, and a planted link cannot redirect them. */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli-process.js';
import { LocalFileStore } from '../../src/files/local-file-store.js';
import { importFiles } from '../../src/ingest/importer.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { Store } from '../../src/store/store.js';
import { companyLine } from '../support/records.js';
import { openTestStore, type TestStore } from '../support/store-harness.js';

const P = 'proj-modes';
const F = 'f1e2d3c4-b5a6-4978-8a9b-0c1d2e3f4a5b';
const ID = '0b5c2a4e-3d1f-4a6b-9c8d-7e6f5a4b3c2d';
const mode = (path: string): number => statSync(path).mode & 0o777;
let dir: string;
let ts: TestStore;
let store: Store;
let umask: number;
beforeAll(async () => {
  // A permissive umask, as a shared host may have: the modes must not depend on it.
  umask = process.umask(0o002);
  dir = mkdtempSync(join(tmpdir(), 'crs-modes-'));
  ts = await openTestStore(dir);
  store = ts.store;
});
afterAll(async () => {
  process.umask(umask);
  await store?.close();
  await ts?.cleanup();
});

describe('the rejects file', () => {
  it('is never written through a planted symbolic link', async () => {
    const victim = join(dir, 'victim.txt');
    writeFileSync(victim, 'precious\n');
    writeFileSync(join(dir, 'linked.ndjson'), '{}\n');
    symlinkSync(victim, join(dir, 'linked.ndjson.rejects.ndjson'));
    await expect(importFiles(store, [join(dir, 'linked.ndjson')])).rejects.toThrow(/refusing to write rejects to .*symbolic link/);
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
  });

  it('is created for its owner only, and an old one of the same user is replaced and narrowed', async () => {
    writeFileSync(join(dir, 'bad.ndjson'), '{}\n');
    const summary = await importFiles(store, [join(dir, 'bad.ndjson')]);
    expect(summary.rejected).toBe(1);
    expect(mode(join(dir, 'bad.ndjson.rejects.ndjson'))).toBe(0o600);
    writeFileSync(join(dir, 'old.ndjson'), '{}\n');
    writeFileSync(join(dir, 'old.ndjson.rejects.ndjson'), 'an earlier run\n'.repeat(100));
    chmodSync(join(dir, 'old.ndjson.rejects.ndjson'), 0o644);
    await importFiles(store, [join(dir, 'old.ndjson')]);
    const text = readFileSync(join(dir, 'old.ndjson.rejects.ndjson'), 'utf8');
    expect(text.trim().split('\n')).toHaveLength(1);
    expect(mode(join(dir, 'old.ndjson.rejects.ndjson'))).toBe(0o600);
  });
});

describe('the SQLite store', () => {
  it('creates its directory 0700 and its file, -wal and -shm 0600', async () => {
    const data = join(dir, 'sqlite-data', 'nested');
    const file = join(data, 'store.db');
    const sqlite = await openSqliteStore(file);
    try {
      writeFileSync(join(dir, 'one.ndjson'), `${companyLine(P, ID, F)}\n`);
      await importFiles(sqlite, [join(dir, 'one.ndjson')]);
      expect(mode(data)).toBe(0o700);
      for (const f of [file, `${file}-wal`, `${file}-shm`]) {
        expect(existsSync(f), f).toBe(true);
        expect(mode(f), f).toBe(0o600);
      }
    } finally {
      await sqlite.close();
      rmSync(join(dir, 'sqlite-data'), { recursive: true, force: true });
    }
  });
});

describe('the local file store', () => {
  it('creates its directory and each project directory 0700 and every file 0600, whatever the source file’s mode', async () => {
    const filesDir = join(dir, 'files');
    const files = new LocalFileStore({ dir: filesDir, secret: Buffer.alloc(32, 7), publicBaseUrl: 'http://127.0.0.1:1' });
    const source = join(dir, 'source.pdf');
    writeFileSync(source, '%PDF-1.4');
    chmodSync(source, 0o644);
    await files.put('acme', F, source);
    await files.putBytes('acme', '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a', 'bytes');
    expect(mode(filesDir)).toBe(0o700);
    expect(mode(join(filesDir, 'acme'))).toBe(0o700);
    for (const name of [F, '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a']) expect(mode(join(filesDir, 'acme', name)), name).toBe(0o600);
    expect(mode(source)).toBe(0o644);
  });
});

describe('the demo data', () => {
  it('is written into a data directory made 0700, as a file of mode 0600', () => {
    const out = join(dir, 'demo-data', 'demo.ndjson');
    runCli(['demo', '--no-import', '--projects', '1', '--companies', '1', '--individuals', '1', '--alerts', '1', '--out', out]);
    expect(mode(join(dir, 'demo-data'))).toBe(0o700);
    expect(mode(out)).toBe(0o600);
  });
});
