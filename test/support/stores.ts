/**
 * The stores every store-dependent suite runs on. vitest.config.ts makes one project per store
 * from this list and tells each test process, in TEST_STORES, which of them this run reaches.
 */
import { postgresReachable, TEST_POSTGRES_URL } from './postgres-admin.js';

export const STORES = ['sqlite', 'postgres'] as const;
export type StoreName = (typeof STORES)[number];

/**
 * The stores this run tests: all of them in CI (where a missing server must fail the run rather
 * than pass it silently), elsewhere those that answer. For vitest.config.ts.
 */
export async function reachableStores(): Promise<StoreName[]> {
  if (process.env.CI !== undefined || (await postgresReachable())) return [...STORES];
  console.log(`PostgreSQL not reachable at ${TEST_POSTGRES_URL}: skipped the PostgreSQL half of the suite`);
  return ['sqlite'];
}

/** The stores of this run, as vitest.config.ts found them; all of them when run without it. */
export function storesToTest(): StoreName[] {
  const named = process.env.TEST_STORES?.split(',');
  return named === undefined ? [...STORES] : STORES.filter((s) => named.includes(s));
}

/** True when this run tests PostgreSQL. */
export const postgresWanted: boolean = storesToTest().includes('postgres');

/** The store of the vitest project running this file (its TEST_STORE). */
export function storeUnderTest(): StoreName {
  const name = process.env.TEST_STORE ?? 'sqlite';
  if (!(STORES as readonly string[]).includes(name)) throw new Error(`TEST_STORE names no store: ${name}`);
  return name as StoreName;
}
