/** A fresh, empty store per run: a SQLite file in the run directory, or a PostgreSQL schema. */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import type { StoreKind } from './options.js';

export interface BenchStore {
  kind: StoreKind;
  /** What --db receives. */
  url: string;
  /** Working directory for this store's processes (document files land here). */
  cwd: string;
  /** Drops the store's data. */
  drop(): Promise<void>;
}

/** Creates an empty store of this kind; PostgreSQL gets a dedicated schema, never `public`. */
export async function createStore(kind: StoreKind, runDir: string, pgUrl: string): Promise<BenchStore> {
  const cwd = join(runDir, kind);
  mkdirSync(cwd, { recursive: true });
  if (kind === 'sqlite') {
    return { kind, url: join(cwd, 'bench.db'), cwd, drop: async () => rmSync(cwd, { recursive: true, force: true }) };
  }
  const schema = `bench_${new Date().toISOString().replace(/\D/g, '').slice(0, 14)}_${process.pid}`;
  await withClient(pgUrl, (c) => c.query(`CREATE SCHEMA ${schema}`));
  const url = `${pgUrl}${pgUrl.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  return {
    kind,
    url,
    cwd,
    drop: async () => {
      await withClient(pgUrl, (c) => c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`));
      rmSync(cwd, { recursive: true, force: true });
    },
  };
}

/**
 * Vacuums and analyzes every table of a PostgreSQL store after its bulk import, as PostgreSQL
 * advises after a bulk load: otherwise autovacuum works through millions of new rows during the
 * first measurements, on the same cores. Returns the seconds it took; SQLite has nothing to do.
 */
export async function settleStore(store: BenchStore): Promise<number> {
  if (store.kind !== 'postgres') return 0;
  const started = performance.now();
  await withClient(store.url, async (c) => {
    const tables = await c.query<{ name: string }>("SELECT quote_ident(tablename) AS name FROM pg_tables WHERE schemaname = current_schema()");
    for (const t of tables.rows) await c.query(`VACUUM (ANALYZE) ${t.name}`);
  });
  return (performance.now() - started) / 1000;
}

/** Runs `fn` on a connection of its own to `url`, closed after. */
export async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}
