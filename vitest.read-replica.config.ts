import { defineConfig } from 'vitest/config';
import { REPLICA_SUITES } from './vitest.config.js';

// A streaming replica made by test/read-replica/run.sh: run by `npm run test:read-replica`, not by `npm test`.
export default defineConfig({
  test: { name: 'read-replica', include: REPLICA_SUITES, testTimeout: 60_000, hookTimeout: 120_000, pool: 'forks', env: { TEST_STORE: 'postgres', TEST_STORES: 'postgres' } },
});
