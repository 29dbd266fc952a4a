/** Stores for tests: a SQLite file in a temp dir, or PostgreSQL in a throwaway schema, chosen by TEST_STORE. */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openPostgresStore } from '../../src/store/postgres/postgres-store.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { Store } from '../../src/store/store.js';

/** The PostgreSQL server the tests use. */
export const TEST_POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Which adapter this test run exercises (vitest projects set TEST_STORE). */
export function testStoreKind(): 'sqlite' | 'postgres' {
  return process.env.TEST_STORE === 'postgres' ? 'postgres' : 'sqlite';
}

/** A store for one test file, and how to throw it away. */
export interface TestStore {
  store: Store;
  /** The DATABASE_URL of the same data, for child processes. */
  url: string;
  cleanup(): Promise<void>;
}

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL, connectionTimeoutMillis: 3000 });
  await client.connect();
  await client.query(sql).finally(() => client.end());
}

/** Opens a fresh, empty store of the run's kind. */
export async function openTestStore(dir = mkdtempSync(join(tmpdir(), 'crs-store-'))): Promise<TestStore> {
  if (testStoreKind() === 'sqlite') {
    const file = join(dir, 'store.db');
    const store = await openSqliteStore(file);
    return { store, url: file, cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const schema = `crs_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  await admin(`CREATE SCHEMA ${schema}`);
  const url = `${TEST_POSTGRES_URL}${TEST_POSTGRES_URL.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  const store = await openPostgresStore(url, { poolSize: 4 });
  return {
    store,
    url,
    cleanup: async () => {
      await admin(`DROP SCHEMA ${schema} CASCADE`);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
