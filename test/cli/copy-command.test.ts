/** `compliance-read copy`: options, refusals and the printed summary. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { customer, day, execution } from '../support/upserts.js';
import { copyCommand, sameStore } from '../../src/cli/copy-command.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'copy-command-test-'));
afterEach(() => {
  vi.restoreAllMocks();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A SQLite store with one company, one execution-only customer and one API key. */
async function seeded(name: string): Promise<string> {
  const file = join(dir, name);
  const store = await openSqliteStore(file);
  await store.writeBatch([customer('p', 'acme', day(1)), execution('p', 'ghost', 'e1', day(2)), execution('p', 'ghost', 'e2', day(3))]);
  await store.insertApiKey({
    id: 'k1', project: 'p', name: null, scopes: [], hash: 'h1', createdAt: day(1), expiresAt: null, revokedAt: null,
  });
  await store.close();
  return file;
}

/** Runs the command in this process and answers what it printed on stdout. */
async function run(args: string[]): Promise<string> {
  const out: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (out.push(String(chunk)), true));
  await copyCommand().exitOverride().parseAsync(args, { from: 'user' });
  vi.restoreAllMocks();
  return out.join('');
}

describe('copy command', () => {
  it('knows two spellings of one SQLite file as the same store, and different PostgreSQL URLs apart', () => {
    expect(sameStore('data/x.db', `sqlite:${join(process.cwd(), 'data/x.db')}`)).toBe(true);
    expect(sameStore('data/x.db', 'data/y.db')).toBe(false);
    expect(sameStore('postgres://h/db', 'postgres://h/db')).toBe(true);
    expect(sameStore('postgres://h/db?options=-c%20search_path%3Da', 'postgres://h/db?options=-c%20search_path%3Db')).toBe(false);
    expect(sameStore('data/x.db', 'postgres://h/db')).toBe(false);
  });

  it('prints counts per table and the rate, or one JSON object with --json', async () => {
    const from = await seeded('from.db');
    const text = await run(['--from', from, '--to', join(dir, 'to.db')]);
    expect(text).toMatch(/^copied 1 customers with a record, 1 known only through executions, 0 company list rows, 0 alerts, 2 executions, 1 API keys, 0 access log batches, 3 change feed entries, 0 erasure tombstones, 0 pending file deletions and the secret\n8 rows in [\d.]+ s \([\d,]+ rows\/s\)\n$/);
    const report = JSON.parse(await run(['--from', from, '--to', join(dir, 'to-json.db'), '--batch', '1', '--json']));
    expect(report).toMatchObject({ customers: 1, bareCustomers: 1, alerts: 0, executions: 2, apiKeys: 1, accessLogBatches: 0, changes: 3, rows: 8 });
    const copied = await openSqliteStore(join(dir, 'to-json.db'));
    try {
      expect(await copied.customerKnown('p', 'ghost')).toBe(true);
      expect((await copied.findApiKeyByHash('h1'))?.id).toBe('k1');
    } finally {
      await copied.close();
    }
  });

  it('refuses to copy a store onto itself, from a SQLite file that does not exist, and a batch size of 0', async () => {
    const from = await seeded('self.db');
    await expect(run(['--from', from, '--to', `sqlite:${from}`])).rejects.toThrow('--from and --to name the same store');
    await expect(run(['--from', join(dir, 'typo.db'), '--to', join(dir, 'typo-to.db')])).rejects.toThrow(/no SQLite store at/);
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    await expect(run(['--from', from, '--to', join(dir, 'zero.db'), '--batch', '0'])).rejects.toThrow(/whole number/);
  });

  it('exits non-zero naming --force when the target holds records, and merges when forced', async () => {
    const from = await seeded('cli-from.db');
    const to = join(dir, 'cli-to.db');
    const target = await openSqliteStore(to);
    await target.writeBatch([customer('p', 'theirs', day(1))]);
    await target.close();
    // The real command line: the refusal must reach people as a message and an exit status.
    const refused = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'copy', '--from', from, '--to', to], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/already holds records.*--force/);
    expect(await run(['--from', from, '--to', to, '--force'])).toMatch(/2 executions/);
    const merged = await openSqliteStore(to);
    try {
      expect(await merged.getCompany('p', 'theirs')).toBeDefined();
      expect(await merged.customerKnown('p', 'ghost')).toBe(true);
    } finally {
      await merged.close();
    }
  });
});
