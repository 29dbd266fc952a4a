/** `compliance-read migrate`: versions before and after, on both adapters. */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { POSTGRES_MIGRATIONS } from '../../src/store/postgres/migrations.js';
import { SQLITE_MIGRATIONS } from '../../src/store/sqlite/migrations.js';
import { harness, type Harness } from '../support/store-harness.js';
import { postgresWanted } from '../support/stores.js';
import { describeMigration, migrateCommand, migrateStore } from '../../src/cli/migrate-command.js';

const dir = mkdtempSync(join(tmpdir(), 'migrate-test-'));
const harnesses: Harness[] = [];
afterEach(() => {
  vi.restoreAllMocks();
});
afterAll(async () => {
  for (const h of harnesses) await h.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

describe('migrate', () => {
  it('names DATABASE_URL and --db when the PostgreSQL server does not answer', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    await new Promise((resolve) => server.close(resolve));
    await expect(migrateStore(`postgres://app:hunter2@127.0.0.1:${port}/db`)).rejects.toThrow(/^DATABASE_URL \(--db\): PostgreSQL store unavailable/);
  });

  it('takes a new SQLite file from version 0 to the latest, then finds nothing to apply', async () => {
    const file = join(dir, 'new.db');
    const latest = SQLITE_MIGRATIONS.length;
    expect(await migrateStore(file)).toEqual({ before: 0, after: latest, latest });
    expect(await migrateStore(`sqlite:${file}`)).toEqual({ before: latest, after: latest, latest });
  });

  it.runIf(postgresWanted)('takes a new PostgreSQL schema to the latest, also when several run at once', async () => {
    const h = harness('postgres');
    harnesses.push(h);
    await h.create();
    const latest = POSTGRES_MIGRATIONS.length;
    const reports = await Promise.all([1, 2, 3].map(() => migrateStore(h.url, { poolSize: 1 })));
    for (const r of reports) expect(r).toEqual({ before: 0, after: latest, latest });
    expect(await migrateStore(h.url)).toEqual({ before: latest, after: latest, latest });
  });

  it('says what changed, that nothing had to, or that the schema is newer than this build', () => {
    expect(describeMigration({ before: 0, after: 1, latest: 1 })).toBe('schema migrated from version 0 to 1 (latest)');
    expect(describeMigration({ before: 1, after: 1, latest: 1 })).toBe('schema already at version 1 (latest), nothing to apply');
    expect(describeMigration({ before: 3, after: 3, latest: 1 })).toMatch(/newer than this build's 1/);
  });

  it('prints the versions as JSON with --json', async () => {
    const out: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (out.push(String(chunk)), true));
    await migrateCommand().parseAsync(['--db', join(dir, 'json.db'), '--json'], { from: 'user' });
    const latest = SQLITE_MIGRATIONS.length;
    expect(JSON.parse(out.join(''))).toEqual({ before: 0, after: latest, latest });
  });
});
