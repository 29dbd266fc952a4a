/**
 * A fresh throwaway database of each store: a SQLite file in a temp directory, PostgreSQL in a
 * schema of its own. Suites of one vitest project open the project's store (openTestStore);
 * suites that compare stores loop over storeHarnesses().
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPostgresStore } from '../../src/store/postgres/postgres-store.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { Store } from '../../src/store/store.js';
import { throwawaySchema } from './postgres-admin.js';
import { storesToTest, storeUnderTest, type StoreName } from './stores.js';

/** One database of one store, reachable by URL. */
export interface Harness {
  name: StoreName;
  /** The DATABASE_URL of the harness's database. */
  url: string;
  /** Creates the empty database (nothing migrated) if it does not exist yet. */
  create(): Promise<void>;
  /** Opens a store on the harness's database; every call reaches the same data. */
  open(): Promise<Store>;
  /** Deletes the database (and `dir`, when given). */
  cleanup(): Promise<void>;
}

/** One function per store in STORES: a new, not yet created database in `dir`, or on the test server. */
const HARNESSES: Record<StoreName, (dir?: string) => Harness> = {
  sqlite(dir = mkdtempSync(join(tmpdir(), 'store-test-'))) {
    const file = join(dir, 'store.db');
    return {
      name: 'sqlite',
      url: file,
      // A SQLite file comes into being when first opened.
      create: async () => undefined,
      open: async () => openSqliteStore(file),
      cleanup: async () => rmSync(dir, { recursive: true, force: true }),
    };
  },
  postgres(dir?: string) {
    const schema = throwawaySchema();
    let created = false;
    const create = async (): Promise<void> => {
      if (created) return;
      await schema.create();
      created = true;
    };
    return {
      name: 'postgres',
      url: schema.url,
      create,
      open: async () => {
        await create();
        return openPostgresStore(schema.url, { poolSize: 4 });
      },
      cleanup: async () => {
        if (created) await schema.drop();
        if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
      },
    };
  },
};

/** A fresh database of store `name`; `dir` (deleted by cleanup) holds a SQLite file. */
export function harness(name: StoreName, dir?: string): Harness {
  return HARNESSES[name](dir);
}

/** The stores of this run, each with a maker of fresh databases, for describe.each. */
export function storeHarnesses(): { adapter: StoreName; make: () => Harness }[] {
  return storesToTest().map((adapter) => ({ adapter, make: () => harness(adapter) }));
}

/** A store for one test file, and how to throw it away. */
export interface TestStore {
  store: Store;
  /** The DATABASE_URL of the same data, for child processes. */
  url: string;
  cleanup(): Promise<void>;
}

/** Opens a fresh, empty store of the project's store; `dir` is deleted by cleanup. */
export async function openTestStore(dir = mkdtempSync(join(tmpdir(), 'crs-store-'))): Promise<TestStore> {
  const h = harness(storeUnderTest(), dir);
  const store = await h.open();
  return { store, url: h.url, cleanup: h.cleanup };
}

/** Opens `h`'s store and has `cleanups` close it and throw the database away. */
export async function openTracked(h: Harness, cleanups: (() => Promise<void>)[]): Promise<Store> {
  const store = await h.open();
  cleanups.push(async () => {
    await store.close();
    await h.cleanup();
  });
  return store;
}
