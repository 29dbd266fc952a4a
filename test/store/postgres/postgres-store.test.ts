/** What only the PostgreSQL adapter has to get right: replicas, outages, collation, large batches. */
import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StoreError, StoreUnavailableError } from '../../../src/store/store-errors.js';
import type { ExecutionUpsert, Upsert } from '../../../src/store/store.js';
import { adminQuery as admin, throwawaySchema, type ThrowawaySchema } from '../../support/postgres-admin.js';
import { postgresWanted } from '../../support/stores.js';
import { alert, body, customer } from '../../support/upserts.js';
import { accessLogEntry } from '../../support/access-log-entries.js';
import { POSTGRES_MIGRATIONS } from '../../../src/store/postgres/migrations.js';
import { migrationName } from '../../../src/store/schema-migrations.js';
import { openPostgresStore, type PostgresStore } from '../../../src/store/postgres/postgres-store.js';
import { CATCH_UP_BOUNDS, indexPostgresAccessLog, insertAccessLogBatches } from '../../../src/store/postgres/access-log-sql.js';
import { STATEMENT_BYTES } from '../../../src/store/postgres/batch-sql.js';
import { BATCHES_PER_BUCKET, batchesOf } from '../../../src/access-log/batches.js';

/** A fresh schema per call, dropped after the suite, and a URL whose search_path points at it. */
const schemas: ThrowawaySchema[] = [];
async function freshSchema(): Promise<string> {
  const schema = throwawaySchema('postgres_store_test');
  await schema.create();
  schemas.push(schema);
  return schema.url;
}

function execution(project: string, customerKey: string, executionId: string, sortKey: string): ExecutionUpsert {
  const body = Buffer.from(JSON.stringify({ executionId, sortKey }));
  return {
    kind: 'execution',
    project,
    key: executionId,
    versionKey: sortKey,
    customerKey,
    executionId,
    status: 'Passed',
    scenarioIds: ['s1', 's2'],
    objectTypes: 1,
    body,
    etag: createHash('sha256').update(body).digest('hex'),
    layout: null,
    deflated: null,
  };
}

describe('opening an unreachable PostgreSQL', () => {
  it('rejects promptly with StoreUnavailableError, without SQL in the message', async () => {
    const started = Date.now();
    const err = await openPostgresStore('postgres://postgres@127.0.0.1:1/test').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreUnavailableError);
    expect((err as Error).message).not.toMatch(/SELECT|CREATE|INSERT/);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});

describe.runIf(postgresWanted)('PostgreSQL store', () => {
  let store: PostgresStore;
  // Unique, so terminating "our" connections never touches another run's.
  const applicationName = `ccr-test-${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    store = await openPostgresStore(await freshSchema(), { poolSize: 2, applicationName, statementTimeoutMs: 1234 });
  });
  afterAll(async () => {
    await store?.close();
    for (const s of schemas) await s.drop().catch(() => undefined);
  });
  /** (record, batch) pairs the per-record table names for the rows `where` selects: each row's set bits. */
  const recordBatchPairs = async (where: string): Promise<number> =>
    (await store.pool.query(`SELECT count(*)::int AS n FROM access_log_records r, generate_series(0, ${BATCHES_PER_BUCKET - 1}) i WHERE ${where} AND get_bit(r.batches, i) = 1`)).rows[0].n;

  it('migrates once when several replicas start at the same time, and they share one secret', async () => {
    const replicaUrl = await freshSchema();
    const replicas = await Promise.all(Array.from({ length: 6 }, () => openPostgresStore(replicaUrl, { poolSize: 1 })));
    try {
      const secrets = await Promise.all(replicas.map((r) => r.secret()));
      for (const s of secrets) expect(s).toEqual(secrets[0]);
      const schema = replicaUrl.match(/search_path%3D(\w+)/)![1]!;
      const applied = await admin<{ name: string }>(`SELECT name FROM ${schema}.kysely_migration ORDER BY 1`);
      expect(applied.map((v) => v.name)).toEqual(POSTGRES_MIGRATIONS.map((_, i) => migrationName(i + 1)));
    } finally {
      await Promise.all(replicas.map((r) => r.close()));
    }
  });

  it('adopts a schema the earlier runner migrated: its versions become applied migrations, none is applied again', async () => {
    const url = await freshSchema();
    const schema = url.match(/search_path%3D(\w+)/)![1]!;
    await admin(`SET search_path = ${schema}; ${POSTGRES_MIGRATIONS.join(';\n')};
      CREATE TABLE schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now());
      INSERT INTO schema_migrations (version) SELECT generate_series(1, ${POSTGRES_MIGRATIONS.length});
      INSERT INTO meta (key, value) VALUES ('secret', '\\x${'07'.repeat(32)}');`);
    const replicas = await Promise.all([1, 2, 3].map(() => openPostgresStore(url, { poolSize: 1 })));
    try {
      for (const r of replicas) expect(await r.schemaVersion()).toBe(POSTGRES_MIGRATIONS.length);
      expect(await replicas[0]!.secret()).toEqual(Buffer.alloc(32, 7));
      const applied = await admin<{ name: string }>(`SELECT name FROM ${schema}.kysely_migration ORDER BY 1`);
      expect(applied.map((v) => v.name)).toEqual(POSTGRES_MIGRATIONS.map((_, i) => migrationName(i + 1)));
    } finally {
      await Promise.all(replicas.map((r) => r.close()));
    }
  });

  it('migrates while other sessions create and drop schemas of their own', async () => {
    // Another client's schemas come and go (its tests, its tenants): migration looks only at this store's schema.
    let churning = true;
    const churn = (async () => {
      for (let i = 0; churning && i < 2000; i++) {
        const other = throwawaySchema('churn');
        await other.create();
        await other.drop();
      }
    })();
    try {
      for (let round = 0; round < 20; round++) {
        const url = await freshSchema();
        const replicas = await Promise.all([1, 2].map(() => openPostgresStore(url, { poolSize: 1 })));
        for (const r of replicas) expect(await r.schemaVersion()).toBe(POSTGRES_MIGRATIONS.length);
        await Promise.all(replicas.map((r) => r.close()));
      }
    } finally {
      churning = false;
      await churn;
    }
  });

  it('applies the configured statement timeout and application name to its connections', async () => {
    const r = await store.pool.query<{ t: string; a: string }>(
      "SELECT current_setting('statement_timeout') AS t, current_setting('application_name') AS a",
    );
    expect(r.rows[0]).toEqual({ t: '1234ms', a: applicationName });
  });

  it('stores gzip bytes without recompressing them and record bodies with lz4', async () => {
    const r = await store.pool.query<{ t: string; c: string; storage: string; compression: string; lz4: boolean }>(
      `SELECT c.relname AS t, a.attname AS c, a.attstorage AS storage, a.attcompression AS compression,
              EXISTS (SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY (enumvals)) AS lz4
       FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
       WHERE c.relnamespace = current_schema()::regnamespace AND c.relname IN ('customers', 'alerts', 'executions')
         AND a.attname IN ('body', 'gz') ORDER BY 1, 2`,
    );
    expect(r.rows).toHaveLength(6);
    for (const row of r.rows) {
      if (row.c === 'gz') expect(row.storage, row.t).toBe('e');
      else expect(row.compression, row.t).toBe(row.lz4 ? 'l' : '');
    }
  });

  it('declares every key and sort column COLLATE "C", so ordering is bytewise like SQLite', async () => {
    const rows = await store.pool.query<{ table_name: string; column_name: string; collation_name: string | null }>(
      `SELECT table_name, column_name, collation_name FROM information_schema.columns
       WHERE table_schema = current_schema()
         AND column_name IN ('project', 'customer_key', 'alert_key', 'execution_id', 'sort_key', 'scenario_id')`,
    );
    expect(rows.rows.length).toBeGreaterThanOrEqual(12);
    for (const r of rows.rows) expect(`${r.table_name}.${r.column_name} ${r.collation_name}`).toMatch(/ C$/);
  });

  it('writes a batch larger than one statement chunk, then finds it all unchanged', async () => {
    const items: Upsert[] = [];
    for (let i = 0; i < 2500; i++) {
      items.push(execution('big', `c${i % 50}`, `e${String(i).padStart(5, '0')}`, `2024-01-01T00:00:${i % 60}Z`));
    }
    expect(new Set(await store.writeBatch(items))).toEqual(new Set(['stored']));
    expect(new Set(await store.writeBatch(items))).toEqual(new Set(['unchanged']));
    const page = await store.listExecutions('big', 'c7', { order: 'asc', scenarioId: 's2' }, undefined, 1000);
    expect(page).toHaveLength(50);
    expect(await store.customerKnown('big', 'c49')).toBe(true);
  });

  it('splits a batch of large records into statements of about STATEMENT_BYTES each, and stores every record', async () => {
    const big = (i: number) => alert('split', `a${i}`, null, String(i).repeat(1_500_000));
    const items = [0, 1, 2, 3, 4, 5, 6, 7].map(big);
    const connect = store.pool.connect.bind(store.pool);
    const alertWrites: number[] = [];
    // Pooled clients outlive the test: each one watched is given its own query back afterwards.
    const watched: [pg.PoolClient, pg.PoolClient['query']][] = [];
    store.pool.connect = (async () => {
      const client = await connect();
      const query = client.query;
      watched.push([client, query]);
      client.query = ((config: { text?: string; values?: unknown[] }, ...rest: unknown[]) => {
        if (typeof config === 'object' && config.text?.startsWith('INSERT INTO alerts')) {
          alertWrites.push((config.values ?? []).reduce<number>((n, v) => n + (Buffer.isBuffer(v) ? v.length : 0), 0));
        }
        return (query as (...a: unknown[]) => unknown).call(client, config, ...rest);
      }) as typeof client.query;
      return client;
    }) as typeof store.pool.connect;
    try {
      expect(new Set(await store.writeBatch(items))).toEqual(new Set(['stored']));
    } finally {
      store.pool.connect = connect;
      for (const [client, query] of watched) client.query = query;
    }
    // Each alert is about 1.5 MB of body and little gzip, 12 MB in all; a statement closes with the row that takes it past STATEMENT_BYTES.
    const largestRow = Math.max(...items.map((a) => a.body.length + (a.deflated?.length ?? 0)));
    expect(alertWrites.length).toBeGreaterThanOrEqual(3);
    for (const bytes of alertWrites) expect(bytes).toBeLessThan(STATEMENT_BYTES + largestRow);
    for (const item of items) {
      const read = (await store.getAlert('split', item.key))!;
      // Buffer.equals: a deep comparison of megabyte buffers takes seconds each.
      expect(read.etag).toBe(item.etag);
      const same = (a: Buffer | null, b: Buffer | null): boolean => (a === null || b === null ? a === b : a.equals(b));
      expect([read.layout, same(read.body, item.body), same(read.deflated, item.deflated)]).toEqual([item.layout, true, true]);
    }
  });

  it('plans the version lookups of a write for each batch, so their plan follows the table as it grows', async () => {
    await store.writeBatch([execution('plans', 'c', 'e1', '2024-01-01T00:00:00Z')]);
    // Both pool connections at once: whichever ran the batch holds its prepared statements.
    const clients = await Promise.all([store.pool.connect(), store.pool.connect()]);
    try {
      for (const client of clients) {
        const r = await client.query<{ name: string }>('SELECT name FROM pg_prepared_statements');
        expect(r.rows.map((row) => row.name).filter((n) => n.startsWith('ccr_prev'))).toEqual([]);
      }
    } finally {
      for (const client of clients) client.release();
    }
  });

  it('reads the records asked for in one turn with one statement per project, each answer its own project\'s', async () => {
    await store.writeBatch([customer('turn-a', 'k1', null), customer('turn-a', 'k2', null), customer('turn-b', 'k1', null), customer('turn-a', 'person', null, false)]);
    const query = store.pool.query.bind(store.pool);
    const sent: unknown[] = [];
    store.pool.query = ((config: unknown, ...rest: unknown[]) => (sent.push(config), (query as (...a: unknown[]) => unknown)(config, ...rest))) as typeof store.pool.query;
    try {
      const got = await Promise.all([
        store.getCompany('turn-a', 'k1'),
        store.getCompany('turn-a', 'k2'),
        store.getCompany('turn-b', 'k1'),
        store.getCompany('turn-a', 'missing'),
        store.getCompany('turn-a', 'person'),
        store.getCompany('turn-b', 'k2'),
      ]);
      expect(sent).toHaveLength(2);
      expect(got.map((r) => (r === undefined ? undefined : body(r)))).toEqual([
        body(customer('turn-a', 'k1', null)),
        body(customer('turn-a', 'k2', null)),
        body(customer('turn-b', 'k1', null)),
        undefined,
        undefined,
        undefined,
      ]);
    } finally {
      store.pool.query = query;
    }
  });

  it('rolls the whole batch back when one row fails', async () => {
    const good = execution('atomic', 'c', 'ok', '2024-01-01T00:00:00Z');
    // A null sort key violates NOT NULL on the second table write of the batch.
    const bad = { ...execution('atomic', 'c', 'bad', '2024-01-01T00:00:00Z'), versionKey: null };
    const err = await store.writeBatch([good, bad]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreError);
    expect(err).not.toBeInstanceOf(StoreUnavailableError);
    expect((err as Error).message).not.toMatch(/INSERT|unnest/);
    expect(await store.customerKnown('atomic', 'c')).toBe(false);
  });

  it('recovers once the server has dropped its connections', async () => {
    await store.ping();
    await admin(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
       WHERE application_name = '${applicationName}'`,
    );
    // Until the pool has seen them close, a call may still meet a dead idle connection, one per
    // connection of the pool (2): it must fail as unavailable, not crash; then calls succeed.
    for (let i = 0; i < 2; i++) {
      const err = await store.ping().then(() => undefined, (e: unknown) => e);
      if (err === undefined) break;
      expect(err).toBeInstanceOf(StoreUnavailableError);
    }
    await expect(store.ping()).resolves.toBeUndefined();
    expect(await store.customerKnown('nobody', 'x')).toBe(false);
  });

  it('reports a duplicate API key hash as a store error naming no SQL', async () => {
    const key = {
      id: 'k1',
      project: 'p',
      name: null,
      scopes: [],
      hash: 'h',
      createdAt: '2024-01-01T00:00:00Z',
      expiresAt: null,
      revokedAt: null,
    };
    await store.insertApiKey(key);
    const err = await store.insertApiKey({ ...key, id: 'k2' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreError);
    expect((err as Error).message).toMatch(/23505/);
    expect((err as Error).message).not.toMatch(/INSERT/);
  });

  it('compresses access log entries with lz4 on a server built with it', async () => {
    const lz4 = await store.pool.query("SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY(enumvals)");
    const column = await store.pool.query<{ c: string }>(
      "SELECT attcompression AS c FROM pg_attribute WHERE attrelid = 'access_log_batches'::regclass AND attname = 'entries'",
    );
    expect(column.rows[0]?.c).toBe(lz4.rowCount === 1 ? 'l' : '');
  });

  it('finds a record’s access log entries whether or not the per-record table has caught up with them', async () => {
    const R = 'b60ddc19-889c-4558-b23a-fa4bb2737124';
    const entry = (minute: number, recordId: string | null, project = 'log-a') => accessLogEntry(minute, recordId, project);
    const minutes = async () => (await store.queryAccessLog({ project: 'log-a', recordId: R, limit: 100 })).map((e) => Number(e.at.slice(14, 16)));
    // A catch-up now restarts the store's own schedule, so the appends below are not caught up by it (due 10 s after the last).
    await store.indexAccessLog();
    await store.appendAccessLog(batchesOf([entry(5, R), entry(1, 'other'), entry(3, R), entry(2, R, 'log-b')]));
    expect(await store.indexAccessLog()).toBe(2); // one batch per project
    await store.appendAccessLog(batchesOf([entry(4, R), entry(6, null), entry(0, R)]));
    expect(await minutes()).toEqual([0, 3, 4, 5]);
    expect(await store.indexAccessLog()).toBe(1);
    expect(await minutes()).toEqual([0, 3, 4, 5]);
    expect(await recordBatchPairs("project IN ('log-a', 'log-b')")).toBe(4);
    expect((await store.queryAccessLog({ project: 'log-b', recordId: R, limit: 100 })).map((e) => e.requestId)).toEqual(['r-log-b-2']);
  });

  it('finds a list answer’s access log entry by any record it returned, before the per-record table has caught up with its batch and after', async () => {
    const returned = ['e-1', 'e-2', '7c0c4e44-4a43-4f0e-9d3f-0b8a8f0c7d11'];
    await store.indexAccessLog(); // the other tests' batches out of the way
    await store.appendAccessLog(batchesOf([{ ...accessLogEntry(1, 'customer-1', 'log-list'), records: returned }, accessLogEntry(2, 'e-2', 'log-list'), accessLogEntry(3, 'other', 'log-list')]));
    expect((await store.pool.query("SELECT indexed FROM access_log_batches WHERE project = 'log-list'")).rows).toEqual([{ indexed: false }]); // scanned, not looked up
    const found = async (recordId: string) => (await store.queryAccessLog({ project: 'log-list', recordId, limit: 100 })).map((e) => [e.requestId, e.records]);
    const expected = {
      'e-1': [['r-log-list-1', returned]],
      'e-2': [
        ['r-log-list-1', returned],
        ['r-log-list-2', undefined],
      ],
      [returned[2]!]: [['r-log-list-1', returned]],
      'customer-1': [['r-log-list-1', returned]],
      'e-3': [],
    };
    for (const [id, want] of Object.entries(expected)) expect(await found(id), id).toEqual(want);
    expect(await store.indexAccessLog()).toBe(1);
    expect(await recordBatchPairs("project = 'log-list'")).toBe(5);
    for (const [id, want] of Object.entries(expected)) expect(await found(id), id).toEqual(want);
  });

  it('keeps a record read in many batches of a bucket as one row of the per-record table, each batch a bit of it', async () => {
    const R = '0b8a8f0c-4a43-4f0e-9d3f-7c0c4e447d11';
    await store.indexAccessLog(); // the other tests' batches out of the way
    for (let i = 0; i < 12; i++) await store.appendAccessLog(batchesOf([{ ...accessLogEntry(i, R, 'log-hot'), requestId: `hot-${i}` }]));
    // Caught up in two rounds: the second ORs its batches into the rows the first wrote.
    await indexPostgresAccessLog(store.pool, () => {}, { ...CATCH_UP_BOUNDS, batches: 5, statements: 1 });
    await store.indexAccessLog();
    expect(await recordBatchPairs("project = 'log-hot'")).toBe(12);
    // Twelve consecutive batch ids fall in one bucket, or two when they straddle a bucket's end.
    const rows = (await store.pool.query("SELECT count(*)::int AS n FROM access_log_records WHERE project = 'log-hot'")).rows[0].n;
    expect(rows).toBeGreaterThanOrEqual(1);
    expect(rows).toBeLessThanOrEqual(2);
    const found = (await store.queryAccessLog({ project: 'log-hot', recordId: R, limit: 100 })).map((e) => e.requestId);
    expect(found.sort()).toEqual(Array.from({ length: 12 }, (_, i) => `hot-${i}`).sort());
  });

  it('finds a record’s access log entries in every bucket of the per-record table', async () => {
    const R = '5d0c4e44-4a43-4f0e-9d3f-0b8a8f0c7d11';
    const n = 2 * BATCHES_PER_BUCKET + 10;
    for (let i = 0; i < n; i++) {
      await store.appendAccessLog(batchesOf([{ ...accessLogEntry(i % 60, i % 100 === 0 ? R : `other-${i}`, 'log-buckets'), requestId: `q-${i}` }]));
    }
    await store.indexAccessLog();
    const buckets = await store.pool.query("SELECT count(*)::int AS n FROM access_log_buckets WHERE project = 'log-buckets'");
    expect(buckets.rows[0].n).toBeGreaterThanOrEqual(3);
    const found = (await store.queryAccessLog({ project: 'log-buckets', recordId: R, limit: 100 })).map((e) => e.requestId);
    expect(found.sort()).toEqual(['q-0', 'q-100', 'q-200', 'q-300', 'q-400', 'q-500']);
  });

  describe('a catch-up of a backlog', () => {
    const project = 'log-backlog';
    /** `n` batches of the project, the i-th naming `ids` records of its own and a shared one, written past the store's own catch-up schedule. */
    async function backlog(n: number, ids: number): Promise<void> {
      await store.indexAccessLog(); // the other tests' batches out of the way
      for (let i = 0; i < n; i++) {
        const records = ['shared', ...Array.from({ length: ids }, (_, j) => `b${i}-r${j}`)];
        await insertAccessLogBatches(store.pool, batchesOf([{ ...accessLogEntry(i % 60, records[1]!, project), requestId: `bl-${i}`, records }]));
      }
    }
    const flagged = async (): Promise<number> => (await store.pool.query(`SELECT count(*)::int AS n FROM access_log_batches WHERE project = $1 AND NOT indexed`, [project])).rows[0].n;
    const failures: unknown[] = [];
    const report = (f: unknown): void => void failures.push(f);
    const bounds = { ...CATCH_UP_BOUNDS, recordBytes: 1 << 20 };

    it('takes at most its bounds per statement and as many statements as allowed, each batch once', async () => {
      await backlog(9, 50);
      // Three batches a statement, two statements: six now, three at the next catch-up.
      expect(await indexPostgresAccessLog(store.pool, report, { ...bounds, batches: 3, statements: 2 })).toBe(6);
      expect(await flagged()).toBe(3);
      // Every batch is over a byte bound of one: each statement takes one batch alone.
      expect(await indexPostgresAccessLog(store.pool, report, { ...bounds, recordBytes: 1, statements: 2 })).toBe(2);
      expect(await flagged()).toBe(1);
      expect(await indexPostgresAccessLog(store.pool, report, bounds)).toBe(1);
      expect(await flagged()).toBe(0);
      expect(failures).toEqual([]);
      expect(await recordBatchPairs(`project = '${project}'`)).toBe(9 * 51);
      const shared = await store.queryAccessLog({ project, recordId: 'shared', limit: 100 });
      expect(shared.map((e) => e.requestId).sort()).toEqual(Array.from({ length: 9 }, (_, i) => `bl-${i}`).sort());
    });

    it('runs its statements under a timeout of its own, not the serving one: past it, the catch-up stops and its batches stay flagged', async () => {
      await backlog(20, 2000);
      await expect(indexPostgresAccessLog(store.pool, report, { ...bounds, timeoutMs: 1 })).rejects.toThrow(/statement timeout/);
      expect(await flagged()).toBe(20);
      expect(await store.indexAccessLog()).toBe(20);
      expect(await flagged()).toBe(0);
    });
  });

  it('prunes whole caught-up batches older than a cutoff with their per-record rows and emptied buckets, and nothing newer', async () => {
    const old = (i: number, recordId: string) => ({ ...accessLogEntry(i % 60, recordId, 'log-prune'), at: '2020-01-01T00:00:00.000Z', requestId: `old-${i}` });
    const n = BATCHES_PER_BUCKET + 10;
    for (let i = 0; i < n; i++) await store.appendAccessLog(batchesOf([old(i, `r-${i % 7}`)]));
    await store.appendAccessLog(batchesOf([accessLogEntry(1, 'r-1', 'log-prune'), accessLogEntry(2, 'r-new', 'log-prune')]));
    await store.indexAccessLog();
    await store.appendAccessLog(batchesOf([old(n, 'r-3')])); // not caught up yet: stays for later
    const count = async (table: string): Promise<number> => (await store.pool.query(`SELECT count(*)::int AS n FROM ${table} WHERE project = 'log-prune'`)).rows[0].n;
    expect(await count('access_log_buckets')).toBeGreaterThanOrEqual(2);
    let pruned = 0;
    for (let r = await store.pruneAccessLog('2021-01-01T00:00:00.000Z', 100); r.batches > 0; r = await store.pruneAccessLog('2021-01-01T00:00:00.000Z', 100)) pruned += r.batches;
    expect(pruned).toBe(n);
    expect(await count('access_log_batches')).toBe(2);
    expect(await count('access_log_records')).toBe(2);
    expect(await count('access_log_buckets')).toBe(1);
    expect((await store.queryAccessLog({ project: 'log-prune', recordId: 'r-1', limit: 10 })).map((e) => e.requestId)).toEqual(['r-log-prune-1']);
  });

  it('moves the access log of a schema made before batches existed into them when it migrates', async () => {
    const url = await freshSchema();
    const schema = url.match(/search_path%3D(\w+)/)![1]!;
    // The schema as version 2 left it, with three reads logged row by row.
    await admin(`SET search_path = ${schema}; ${POSTGRES_MIGRATIONS[0]} ${POSTGRES_MIGRATIONS[1]}
      CREATE TABLE schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now());
      INSERT INTO schema_migrations (version) VALUES (1), (2);
      INSERT INTO access_log (project, at, key_id, route, record_id, status, request_id, client) VALUES
        ('old-a', '2026-03-01T10:02:00.000Z', 'k1', '/v1/alerts/:id', 'r1', 200, 'q2', '10.0.0.1'),
        ('old-a', '2026-03-01T10:01:00.000Z', 'k1', '/v1/alerts/:id', 'r1', 404, 'q1', '10.0.0.1'),
        ('old-a', '2026-03-01T10:03:00.000Z', NULL, '/v1/alerts/:id', NULL, 401, 'q3', '10.0.0.2');`);
    const migrated = await openPostgresStore(url, { poolSize: 1 });
    try {
      expect((await migrated.queryAccessLog({ project: 'old-a', limit: 10 })).map((e) => [e.requestId, e.status, e.keyId, e.recordId])).toEqual([
        ['q1', 404, 'k1', 'r1'],
        ['q2', 200, 'k1', 'r1'],
        ['q3', 401, null, null],
      ]);
      expect(await migrated.indexAccessLog()).toBe(1);
      expect((await migrated.queryAccessLog({ project: 'old-a', recordId: 'r1', limit: 10 })).map((e) => e.requestId)).toEqual(['q1', 'q2']);
    } finally {
      await migrated.close();
    }
  });

  it('folds a per-record table of one row per record and batch into bitmaps when it migrates, finding the same batches', async () => {
    const url = await freshSchema();
    const schema = url.match(/search_path%3D(\w+)/)![1]!;
    const before = POSTGRES_MIGRATIONS.findIndex((m) => m.includes('CREATE TABLE access_log_record_bits'));
    // The schema just before the fold, with caught-up batches 5, 6 and 300 (a second bucket) naming r1, and 6 naming r2.
    const batch = (id: number, records: string[]) =>
      `INSERT INTO access_log_batches (id, project, first_at, last_at, entries, records, indexed) OVERRIDING SYSTEM VALUE VALUES
        (${id}, 'fold', '2026-03-01T10:0${id % 10}:00.000Z', '2026-03-01T10:0${id % 10}:00.000Z',
         '${JSON.stringify(records.map((r) => ['2026-03-01T10:0' + (id % 10) + ':00.000Z', 'k1', '/v1/alerts/:id', r, 200, `q${id}-${r}`, '10.0.0.1']))}', '${JSON.stringify(records)}', true);`;
    await admin(`SET search_path = ${schema}; ${POSTGRES_MIGRATIONS.slice(0, before).join('\n')}
      CREATE TABLE schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now());
      INSERT INTO schema_migrations (version) SELECT generate_series(1, ${before});
      ${batch(5, ['r1'])} ${batch(6, ['r1', 'r2'])} ${batch(300, ['r1'])}
      INSERT INTO access_log_buckets (project, bucket) VALUES ('fold', 0), ('fold', 1);
      INSERT INTO access_log_records (project, bucket, record_hash, batch_id) VALUES
        ('fold', 0, hashtextextended('r1', 0), 5), ('fold', 0, hashtextextended('r1', 0), 6),
        ('fold', 0, hashtextextended('r2', 0), 6), ('fold', 1, hashtextextended('r1', 0), 300);`);
    const migrated = await openPostgresStore(url, { poolSize: 1 });
    try {
      expect((await migrated.pool.query('SELECT count(*)::int AS n FROM access_log_records')).rows[0].n).toBe(3);
      // Every batch is flagged as caught up: only the per-record table can lead to them (oldest entry first).
      expect((await migrated.queryAccessLog({ project: 'fold', recordId: 'r1', limit: 10 })).map((e) => e.requestId)).toEqual(['q300-r1', 'q5-r1', 'q6-r1']);
      expect((await migrated.queryAccessLog({ project: 'fold', recordId: 'r2', limit: 10 })).map((e) => e.requestId)).toEqual(['q6-r2']);
      expect(await migrated.queryAccessLog({ project: 'fold', recordId: 'r3', limit: 10 })).toEqual([]);
    } finally {
      await migrated.close();
    }
  });
});
