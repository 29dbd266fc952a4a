/** The test PostgreSQL server: statements outside any store, and throwaway schemas on it. */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The PostgreSQL server the tests use. */
export const TEST_POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Runs `sql` on a connection of its own and returns its rows. */
export async function adminQuery<T extends pg.QueryResultRow = pg.QueryResultRow>(sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL, connectionTimeoutMillis: 2000 });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

/** Tries of `afterOtherSnapshots`, 0.5 s apart: 30 s for other suites' transactions to end. */
const SNAPSHOT_TRIES = 60;

/**
 * Runs `step` (a maintenance statement, then a check) until it answers true, at most
 * SNAPSHOT_TRIES times, 0.5 s apart; returns its last answer. VACUUM keeps the row versions a
 * transaction open elsewhere in the database (another suite's) can still see, so what it should
 * have done may only hold once those have ended.
 */
export async function afterOtherSnapshots(step: () => Promise<boolean>): Promise<boolean> {
  for (let i = 1; ; i++) {
    if (await step()) return true;
    if (i >= SNAPSHOT_TRIES) return false;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** True when the test server answers a query. */
export function postgresReachable(): Promise<boolean> {
  return adminQuery('SELECT 1').then(
    () => true,
    () => false,
  );
}

/** A schema of its own, so parallel runs and earlier leftovers never collide, and a URL whose search_path points at it. */
export interface ThrowawaySchema {
  schema: string;
  url: string;
  /** Creates the empty schema (nothing migrated). */
  create(): Promise<void>;
  drop(): Promise<void>;
}

/** Names a new schema; nothing exists on the server until `create()`. */
export function throwawaySchema(prefix = 'store_test'): ThrowawaySchema {
  const schema = `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
  const url = `${TEST_POSTGRES_URL}${TEST_POSTGRES_URL.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  return {
    schema,
    url,
    create: async () => {
      await adminQuery(`CREATE SCHEMA ${schema}`).catch((err: Error) => {
        throw new Error(`PostgreSQL not reachable at ${TEST_POSTGRES_URL}: ${err.message}`);
      });
    },
    drop: async () => void (await adminQuery(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)),
  };
}
