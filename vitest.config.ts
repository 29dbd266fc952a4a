import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import { reachableStores, STORES } from './test/support/stores.js';

/** Suites that open the project's store (openTestStore, startTestService): they run once per store. */
const STORE_SUITES = ['test/http/*.test.ts', 'test/hostile/*.test.ts', 'test/ingest/*.test.ts', 'test/client/*.test.ts'];
/** Suites in those folders that choose their stores themselves, or need none: they run once. */
const ONCE = ['test/http/{redis-rate-limiter,shutdown}.test.ts', 'test/ingest/{import-resume,prepare-worker,alert-listing-prepare}.test.ts'];
/** Long soaks run apart, by `npm run test:soak` (vitest.soak.config.ts). */
export const SOAKS = ['**/*.soak.test.ts'];
/** Suites that need a streaming replica run apart, by `npm run test:read-replica` (vitest.read-replica.config.ts). */
export const REPLICA_SUITES = ['**/*.replica.test.ts'];
/** The console's time budgets run after the other suites, by `npm run test:budgets`: measured beside them, a budget measures the suites. */
export const BUDGETS = ['test/console/budgets.browser.test.ts'];

export default defineConfig(async () => {
  const common = { testTimeout: 60_000, hookTimeout: 120_000, pool: 'forks' as const };
  const stores = await reachableStores();
  // One project per store; the first also runs every suite that does not depend on the store.
  const projects = stores.map((store) => ({
    test: {
      ...common,
      name: store,
      include: store === STORES[0] ? ['src/**/*.test.ts', 'test/**/*.test.ts'] : STORE_SUITES,
      exclude: [...configDefaults.exclude, ...SOAKS, ...REPLICA_SUITES, ...BUDGETS, ...(store === STORES[0] ? [] : ONCE)],
      env: { TEST_STORE: store, TEST_STORES: stores.join(',') },
    },
  }));
  // Most suites wait on servers, browsers and child processes rather than compute: two files at a
  // time even on two cores (vitest's default there is one).
  return { test: { projects, maxWorkers: Math.max(2, availableParallelism() - 1) } };
});
