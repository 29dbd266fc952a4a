import { connect } from 'node:net';
import { defineConfig } from 'vitest/config';

// Suites that talk to a store run twice: on SQLite, and on PostgreSQL (TEST_STORE=postgres).
const STORE_SUITES = ['test/http/**/*.test.ts', 'test/ingest/**/*.test.ts', 'test/hostile/**/*.test.ts', 'src/ingest/importer.test.ts', 'src/client/**/*.test.ts'];

/** True when something listens on the test PostgreSQL port. */
function postgresReachable(): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port: 5432, timeout: 2000 });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
  });
}

export default defineConfig(async () => {
  const common = { testTimeout: 60_000, hookTimeout: 120_000, pool: 'forks' as const };
  const postgres = process.env.CI !== undefined || (await postgresReachable());
  if (!postgres) console.log('PostgreSQL not reachable at 127.0.0.1:5432: skipped the PostgreSQL half of the suite');
  return {
    test: {
      projects: [
        { test: { ...common, name: 'sqlite', include: ['src/**/*.test.ts', 'test/**/*.test.ts'], env: { TEST_STORE: 'sqlite' } } },
        ...(postgres ? [{ test: { ...common, name: 'postgres', include: STORE_SUITES, env: { TEST_STORE: 'postgres' } } }] : []),
      ],
    },
  };
});
