/**
 * The serving store with a streaming replica (DATABASE_READ_URL), on a replica of the test server
 * that `npm run test:read-replica` makes (test/read-replica/replica-cluster.sh): reads come from
 * the replica, an import shows there shortly, the feed skips nothing while the replica lags, a
 * page is read again once the replica has a change, and reads fall back to the primary while the
 * replica is down.
 */
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { loadConfig } from '../../src/config/load-config.js';
import { startService, type Service } from '../../src/app/service.js';
import { createApiKey } from '../../src/store/api-keys.js';
import { openPostgresStore, type PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { catchUp, feedPage, feedSettled, importLines, plainCustomerLine } from '../support/changes-feed.js';
import { numberedId } from '../support/companies.js';
import { throwawaySchema, type ThrowawaySchema } from '../support/postgres-admin.js';

const REPLICA_URL = process.env.READ_REPLICA_URL;
const REPLICA_DIR = process.env.READ_REPLICA_DIR;
const SCRIPT = new URL('./replica-cluster.sh', import.meta.url).pathname;
const P = 'proj-replica';

/** The `after` cursor of a feed URL. */
const cursorOf = (path: string): string | null => new URL(path, 'http://x').searchParams.get('after');

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** The URL of `base` with the schema's search_path, as the schema's own URL has it. */
function withSchema(base: string, schema: ThrowawaySchema): string {
  return `${base}${base.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema.schema}`)}`;
}

async function on<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

/** Waits until the replica has replayed everything the primary had written when called. */
async function replicaCaughtUp(primaryUrl: string, replicaUrl: string): Promise<void> {
  const lsn = (await on<{ lsn: string }>(primaryUrl, 'SELECT pg_current_wal_lsn()::text AS lsn'))[0]!.lsn;
  for (let i = 0; i < 200; i++) {
    const rows = await on<{ done: boolean }>(replicaUrl, `SELECT pg_last_wal_replay_lsn() >= '${lsn}'::pg_lsn AS done`);
    if (rows[0]!.done) return;
    await sleep(25);
  }
  throw new Error('the replica did not replay the primary within 5 s');
}

describe.runIf(REPLICA_URL !== undefined)('read replica', () => {
  let schema: ThrowawaySchema;
  let replicaUrl: string;
  let svc: Service;
  let primary: PostgresStore;
  let key: string;
  const get = (path: string): Promise<Response> => fetch(`${svc.url}/v1${path}`, { headers: { authorization: `Bearer ${key}` } });
  const company = (n: number): string => numberedId(n, 'a1a1');

  beforeAll(async () => {
    if (REPLICA_URL === undefined || REPLICA_DIR === undefined) throw new Error('READ_REPLICA_URL and READ_REPLICA_DIR come from npm run test:read-replica');
    schema = throwawaySchema('replica_test');
    await schema.create();
    replicaUrl = withSchema(REPLICA_URL, schema);
    // Imports and keys go to the primary, as `compliance-read import` and `keys create` do.
    primary = await openPostgresStore(schema.url);
    await importLines(primary, [1, 2, 3].map((n) => plainCustomerLine(P, company(n), 'Company')));
    key = (await createApiKey(primary, { project: P, scopes: ['companies:read', 'changes:read'] })).key;
    const config = loadConfig({}, { DATABASE_URL: schema.url, DATABASE_READ_URL: replicaUrl, HOST: '127.0.0.1', PORT: '0', PG_POOL_SIZE: '4', ACCESS_LOG: 'off' });
    svc = await startService(config, { logger: false });
    await replicaCaughtUp(schema.url, replicaUrl);
  });

  afterAll(async () => {
    if (REPLICA_URL !== undefined) await on(REPLICA_URL, 'SELECT pg_wal_replay_resume()').catch(() => undefined);
    await svc?.close();
    await primary?.close();
    await schema?.drop();
  });

  it('reads records from the replica: one imported while replay is paused is not found until it resumes, then within 1 s', async () => {
    expect((await get(`/companies/${company(1)}/details`)).status).toBe(200);
    // The service's connections are on the replica's server, under the service's application name.
    const sessions = await on<{ n: number }>(REPLICA_URL!, "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'compliance-read'");
    expect(sessions[0]!.n).toBeGreaterThan(0);

    await on(REPLICA_URL!, 'SELECT pg_wal_replay_pause()');
    await importLines(primary, [plainCustomerLine(P, company(10), 'Company')]);
    expect(await primary.getCompany(P, company(10))).toBeDefined();
    expect((await get(`/companies/${company(10)}/details`)).status).toBe(404);
    await on(REPLICA_URL!, 'SELECT pg_wal_replay_resume()');

    await importLines(primary, [plainCustomerLine(P, company(11), 'Company')]);
    const imported = Date.now();
    let status = 0;
    while (Date.now() - imported < 1000 && status !== 200) {
      status = (await get(`/companies/${company(11)}/details`)).status;
      if (status !== 200) await sleep(20);
    }
    expect(status).toBe(200);
  });

  it('skips nothing in the feed while the replica lags: the cursor stays where the replica had read', async () => {
    await feedSettled(schema.url);
    await replicaCaughtUp(schema.url, replicaUrl);
    const { items: before, next } = await catchUp(svc.url, '/v1/changes?limit=2', key);
    expect(before.length).toBeGreaterThan(0);

    // A first long poll starts the service's LISTEN on the primary; nothing new, so it ends empty where it began.
    const idle = await feedPage(svc.url, `${next}&wait=1`, key);
    expect(idle.items).toEqual([]);
    expect(cursorOf(idle.next!)).toBe(cursorOf(next));

    await on(REPLICA_URL!, 'SELECT pg_wal_replay_pause()');
    const added = [20, 21, 22].map(company);
    await importLines(primary, added.map((id) => plainCustomerLine(P, id, 'Company')));
    await feedSettled(schema.url);
    const lagging = await feedPage(svc.url, next, key);
    expect(lagging.status).toBe(200);
    expect(lagging.items).toEqual([]);
    expect(lagging.next).toBe(next);
    // A long poll woken by the primary's notification finds nothing on the paused replica and keeps waiting.
    const poll = feedPage(svc.url, `${next}&wait=5`, key);
    await sleep(400);
    await on(REPLICA_URL!, 'SELECT pg_wal_replay_resume()');
    const woken = await poll;
    expect(woken.status).toBe(200);
    expect(woken.items.length).toBeGreaterThan(0);
    const rest = await catchUp(svc.url, woken.next!, key);
    expect([...woken.items, ...rest.items].map((c) => c.id)).toEqual(added);
    const all = await catchUp(svc.url, '/v1/changes', key);
    expect(all.items.map((c) => c.id)).toEqual([...before.map((c) => c.id), ...added]);
  });

  it('reads a list page again once the replica has a change its stamp did not see', async () => {
    const ids = async (): Promise<string[]> => ((await (await get('/companies?limit=100')).json()) as { id: string }[]).map((c) => c.id);
    const first = await ids();
    expect(await ids()).toEqual(first);
    await on(REPLICA_URL!, 'SELECT pg_wal_replay_pause()');
    await importLines(primary, [plainCustomerLine(P, company(30), 'Company')]);
    expect(await ids()).not.toContain(company(30));
    await on(REPLICA_URL!, 'SELECT pg_wal_replay_resume()');
    await replicaCaughtUp(schema.url, replicaUrl);
    expect(await ids()).toContain(company(30));
  });

  it("counts a change by a transaction running when a replica's stamp was taken as unseen", async () => {
    // A hot standby's snapshot lists no running xids: the stamp's check must not take a running writer as seen.
    const reader = await openPostgresStore(schema.url, { readUrl: replicaUrl, poolSize: 2 });
    const writer = new pg.Client({ connectionString: schema.url });
    await writer.connect();
    try {
      await writer.query('BEGIN');
      await writer.query(`INSERT INTO changes (project, record, record_key, etag, item) VALUES ('${P}', 'customer:open-writer', 'open-writer', NULL, '\\x7b7d')`);
      // A later transaction commits, so the replica's snapshot has the open writer between its xmin and xmax.
      await importLines(primary, [plainCustomerLine('proj-other', company(40), 'Company')]);
      await replicaCaughtUp(schema.url, replicaUrl);
      const { stamp } = await reader.changeStamp(P);
      expect((await reader.changeStamp(P, stamp)).changed).toBe(false);
      await writer.query('COMMIT');
      await replicaCaughtUp(schema.url, replicaUrl);
      expect((await reader.changeStamp(P, stamp)).changed).toBe(true);
    } finally {
      await writer.end();
      await reader.close();
    }
  });

  it('reads from the primary while the replica is down, never answering 500', async () => {
    await importLines(primary, [plainCustomerLine(P, company(50), 'Company')]);
    await replicaCaughtUp(schema.url, replicaUrl);
    const page = await get('/companies?limit=100');
    expect(page.status).toBe(200);
    execFileSync(SCRIPT, ['stop', REPLICA_DIR!], { stdio: 'inherit', timeout: 60_000 });
    try {
      await importLines(primary, [plainCustomerLine(P, company(51), 'Company')]);
      const statuses: number[] = [];
      for (let i = 0; i < 20; i++) statuses.push((await get(`/companies/${company(51)}/details`)).status);
      expect(statuses.every((s) => s === 200)).toBe(true);
      const list = await get('/companies?limit=100');
      expect(list.status).toBe(200);
      expect(((await list.json()) as { id: string }[]).map((c) => c.id)).toContain(company(51));
      // The feed serves an entry once every older transaction in the database has ended (other suites' included).
      await feedSettled(schema.url);
      const feed = await catchUp(svc.url, '/v1/changes', key);
      expect(feed.items.map((c) => c.id)).toContain(company(51));
    } finally {
      execFileSync(SCRIPT, ['start', REPLICA_DIR!], { stdio: 'inherit', timeout: 90_000 });
    }
    await replicaCaughtUp(schema.url, replicaUrl);
    // Back on the replica: its pool has connections again once reads go there.
    for (let i = 0; i < 100; i++) {
      expect((await get(`/companies/${company(51)}/details`)).status).toBe(200);
      const sessions = await on<{ n: number }>(REPLICA_URL!, "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'compliance-read'");
      if (sessions[0]!.n > 0) return;
      await sleep(50);
    }
    throw new Error('reads did not return to the replica');
  });
});
