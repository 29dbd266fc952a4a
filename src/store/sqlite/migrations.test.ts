/** SQLite schema migrations: a file the runner before kysely's migrated is adopted, never migrated twice. */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { migrationName } from '../schema-migrations.js';
import { addMigrationFunctions, SQLITE_MIGRATIONS } from './migrations.js';
import { openSqliteStore } from './sqlite-store.js';

const dir = mkdtempSync(join(tmpdir(), 'crs-migrations-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A file as the runner before kysely's left it at `version`: the migrations applied, the version in user_version. */
function oldLayout(name: string, version: number): string {
  const file = join(dir, name);
  const db = new Database(file);
  addMigrationFunctions(db);
  for (const [v, text] of SQLITE_MIGRATIONS.slice(0, version).entries()) {
    db.exec(text);
    db.pragma(`user_version = ${v + 1}`);
  }
  db.prepare("INSERT INTO meta (key, value) VALUES ('secret', ?)").run(Buffer.alloc(32, 7));
  db.close();
  return file;
}

function applied(file: string): string[] {
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare('SELECT name FROM kysely_migration ORDER BY name').all() as { name: string }[]).map((r) => r.name);
  } finally {
    db.close();
  }
}

describe('SQLite migrations', () => {
  it('adopts a file the earlier runner took to the latest version: nothing is applied again, its secret is kept', async () => {
    const file = oldLayout('latest.db', SQLITE_MIGRATIONS.length);
    const store = await openSqliteStore(file);
    try {
      expect(await store.schemaVersion()).toBe(SQLITE_MIGRATIONS.length);
      expect(await store.secret()).toEqual(Buffer.alloc(32, 7));
    } finally {
      await store.close();
    }
    expect(applied(file)).toEqual(SQLITE_MIGRATIONS.map((_, i) => migrationName(i + 1)));
  });

  it('adopts the versions an earlier runner applied and applies only the ones after them', async () => {
    const file = oldLayout('v1.db', 1);
    const store = await openSqliteStore(file);
    try {
      expect(await store.schemaVersion()).toBe(SQLITE_MIGRATIONS.length);
      expect(await store.hasRecords()).toBe(false);
    } finally {
      await store.close();
    }
    expect(applied(file)).toEqual(SQLITE_MIGRATIONS.map((_, i) => migrationName(i + 1)));
  });

  it('migrates a new file once when several processes open it together', async () => {
    const file = join(dir, 'together.db');
    const module = fileURLToPath(new URL('./sqlite-store.ts', import.meta.url));
    const script = `import { openSqliteStore } from ${JSON.stringify(module)};
      const s = await openSqliteStore(${JSON.stringify(file)}); console.log(await s.schemaVersion()); await s.close();`;
    const run = (): Promise<{ stdout: string }> => promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { timeout: 60_000 });
    const outs = await Promise.all([run(), run(), run()]);
    expect(outs.map((o) => o.stdout.trim())).toEqual(Array(3).fill(String(SQLITE_MIGRATIONS.length)));
    expect(applied(file)).toEqual(SQLITE_MIGRATIONS.map((_, i) => migrationName(i + 1)));
  });
});
