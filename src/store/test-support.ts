/**
 * Helpers for the store's own tests: both adapters on throwaway databases (SQLite in a temp
 * directory, PostgreSQL in a schema of its own), and hand-made records.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { RecordBytes } from '../wire/record-bytes.js';
import { layoutRecord } from '../wire/record-layout.js';
import { openPostgresStore } from './postgres/postgres-store.js';
import { openSqliteStore } from './sqlite/sqlite-store.js';
import type { AlertUpsert, CustomerUpsert, ExecutionUpsert, Store } from './store.js';

/** A record's bytes as written: with its JSON. */
type StoredBody = RecordBytes & { body: Buffer };

/** The PostgreSQL server the tests use. */
export const PG_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** One database of one adapter, reachable by URL. */
export interface Harness {
  name: 'sqlite' | 'postgres';
  /** The DATABASE_URL of the harness's database. */
  url: string;
  /** Creates the empty database (nothing migrated) if it does not exist yet. */
  create(): Promise<void>;
  /** Opens a store on the harness's database; every call reaches the same data. */
  open(): Promise<Store>;
  cleanup(): Promise<void>;
}

/** A SQLite file in a temp directory of its own. */
export function sqliteHarness(): Harness {
  const dir = mkdtempSync(join(tmpdir(), 'store-test-'));
  const file = join(dir, 'store.db');
  return {
    name: 'sqlite',
    url: file,
    // A SQLite file comes into being when first opened.
    create: async () => undefined,
    open: async () => openSqliteStore(file),
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Runs one statement on a connection of its own, outside any store. */
export async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 2000 });
  await client.connect();
  await client.query(sql).finally(() => client.end());
}

/** A schema of its own per harness, so parallel runs and earlier leftovers never collide. */
export function postgresHarness(): Harness {
  const schema = `store_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const url = `${PG_URL}${PG_URL.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  let created = false;
  const create = async (): Promise<void> => {
    if (created) return;
    await admin(`CREATE SCHEMA ${schema}`).catch((err: Error) => {
      throw new Error(`PostgreSQL not reachable at ${PG_URL} (and CI is set): ${err.message}`);
    });
    created = true;
  };
  return {
    name: 'postgres',
    url,
    create,
    open: async () => {
      await create();
      return openPostgresStore(url, { poolSize: 4 });
    },
    cleanup: async () => {
      if (created) await admin(`DROP SCHEMA ${schema} CASCADE`);
    },
  };
}

/**
 * True when the PostgreSQL half should run: the server answers, or CI is set (where a missing
 * server must fail the run rather than pass it silently).
 */
export const postgresWanted: boolean = await admin('SELECT 1').then(
  () => true,
  () => process.env.CI !== undefined,
);
if (!postgresWanted) console.log(`PostgreSQL not reachable at ${PG_URL}: skipped the tests that need it`);

/** The adapters a suite runs on, for describe.each. */
export const harnesses: { adapter: Harness['name']; make: () => Harness }[] = [
  { adapter: 'sqlite', make: sqliteHarness },
  ...(postgresWanted ? [{ adapter: 'postgres' as const, make: postgresHarness }] : []),
];

/** A body with its etag and wire bytes, as the importer would shape it. */
export function stored(doc: object): StoredBody {
  const body = Buffer.from(JSON.stringify(doc));
  return { body, etag: createHash('sha256').update(body).digest('hex'), ...layoutRecord(body, { documents: null, gzipLevel: 6 }) };
}

/** A customer record; a company unless `isCompany` is false. */
export function customer(project: string, key: string, version: string | null, isCompany = true, note = ''): CustomerUpsert {
  return { kind: 'customer', project, key, versionKey: version, isCompany, ...stored({ key, version, isCompany, note }) };
}

/** An alert record. */
export function alert(project: string, key: string, version: string | null, note = ''): AlertUpsert {
  return { kind: 'alert', project, key, versionKey: version, ...stored({ key, version, note }) };
}

/** An execution record of a customer. */
export function execution(
  project: string,
  customerKey: string,
  executionId: string,
  sortKey: string,
  more: { status?: string | null; scenarioIds?: string[]; objectTypes?: number; note?: string } = {},
): ExecutionUpsert {
  const { status = 'Passed', scenarioIds = [], objectTypes = 0, note = '' } = more;
  const rest = { customerKey, executionId, status, scenarioIds, objectTypes };
  return { kind: 'execution', project, key: executionId, versionKey: sortKey, ...rest, ...stored({ ...rest, sortKey, note }) };
}

/** Only the served fields of a stored body, for comparisons. */
export const body = (r: RecordBytes): RecordBytes => ({ body: r.body, etag: r.etag, layout: r.layout, deflated: r.deflated });

/** Midnight UTC of day `d` of January 2024, as an instant key. */
export const day = (d: number): string => `2024-01-0${d}T00:00:00Z`;

let projects = 0;
/** A project name no other test uses. */
export const newProject = (): string => `project-${++projects}-${randomBytes(3).toString('hex')}`;
