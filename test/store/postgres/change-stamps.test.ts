/**
 * PostgreSQL's change stamps compare a snapshot with the project's feed entries by index probes:
 * the transactions a stamp saw running are looked up one by one, never by reading every entry of
 * the project (a stamp taken while another transaction runs, as the access log's often do). A
 * turn's checks of several projects go as one statement, each answered for its own project.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeStampsQuery } from '../../../src/store/postgres/postgres-changes.js';
import { openPostgresStore, type PostgresStore } from '../../../src/store/postgres/postgres-store.js';
import { throwawaySchema, type ThrowawaySchema } from '../../support/postgres-admin.js';
import { postgresWanted } from '../../support/stores.js';
import { alert } from '../../support/upserts.js';

const P = 'stamped';
const QUIET = 'quiet';
const BATCHES = 12;

describe.runIf(postgresWanted)('PostgreSQL change stamps', () => {
  let schema: ThrowawaySchema;
  let store: PostgresStore;
  /** The xids of the project's feed entries, one per batch, in commit order. */
  let xids: bigint[];

  beforeAll(async () => {
    schema = throwawaySchema('change_stamps');
    await schema.create();
    store = await openPostgresStore(schema.url);
    // One transaction per batch: entries of many xids, as an import leaves them.
    for (let b = 0; b < BATCHES; b++) {
      await store.writeBatch(Array.from({ length: 20 }, (_, i) => alert(P, `alert-${b}-${i}`, `2024-01-01T00:00:${String(b).padStart(2, '0')}Z`)));
    }
    const r = await store.pool.query<{ xid: string }>('SELECT DISTINCT xid::text AS xid FROM changes WHERE project = $1 ORDER BY 1', [P]);
    xids = r.rows.map((row) => BigInt(row.xid)).sort((a, b) => (a < b ? -1 : 1));
  });
  afterAll(async () => {
    await store?.close();
    await schema?.drop();
  });

  it('says a stamp that saw a committed entry’s transaction running has changed, and one taken after all of them has not', async () => {
    expect(xids).toHaveLength(BATCHES);
    const first = xids[0]!;
    const last = xids.at(-1)!;
    const sawRunning = `${first}:${last + 1n}:${xids[3]}`;
    const after = `${last + 1n}:${last + 1n}:`;
    // Asked alone (one stamp in the turn), then together (several).
    expect(await store.changeStamp(P, sawRunning)).toMatchObject({ changed: true });
    expect(await store.changeStamp(P, after)).toMatchObject({ changed: false });
    const together = await Promise.all([store.changeStamp(P, sawRunning), store.changeStamp(P, after), store.changeStamp(P)]);
    expect(together.map((s) => s.changed)).toEqual([true, false, false]);
  });

  it("answers a turn's checks of several projects in one statement, each for its own project", async () => {
    await store.writeBatch([alert(QUIET, 'quiet-1', '2024-01-01T00:00:00Z')]);
    const before = await Promise.all([store.changeStamp(P), store.changeStamp(QUIET)]);
    await store.writeBatch([alert(P, 'later', '2024-01-03T00:00:00Z')]);
    const statements: string[] = [];
    const query = store.pool.query.bind(store.pool);
    store.pool.query = ((config: unknown, ...rest: unknown[]) => {
      const name = (config as { name?: string }).name;
      if (name?.startsWith('ccr_change_stamps')) statements.push(name);
      return (query as (...a: unknown[]) => unknown)(config, ...rest);
    }) as typeof store.pool.query;
    try {
      const after = await Promise.all([store.changeStamp(P, before[0]!.stamp), store.changeStamp(QUIET, before[1]!.stamp), store.changeStamp(QUIET, before[1]!.stamp)]);
      expect(after.map((s) => s.changed)).toEqual([true, false, false]);
      expect(statements).toEqual(['ccr_change_stamps_2']);
    } finally {
      store.pool.query = query;
    }
  });

  it('probes the index for each running transaction a stamp lists, never a scan of the entries, with the table analyzed', async () => {
    const first = xids[0]!;
    const last = xids.at(-1)!;
    const since = `${first}:${last + 1n}:${xids[2]},${xids[5]}`;
    // Most entries are this project's and its statistics say so: the shape in which = ANY was read by a scan of the table.
    await store.writeBatch(Array.from({ length: 2000 }, (_, i) => alert(P, `bulk-${i}`, '2024-01-02T00:00:00Z')));
    const client = await store.pool.connect();
    try {
      await client.query('ANALYZE changes');
      // The statements of one, two and four pairs (three padded); custom and generic plans alike.
      for (const mode of ['force_custom_plan', 'force_generic_plan']) {
        await client.query(`SET plan_cache_mode = ${mode}`);
        const lit = (v: string): string => client.escapeLiteral(v);
        // EXPLAIN EXECUTE takes no bound parameters: the arguments are written as literals.
        for (const pairs of [[[P, since]], [[P, since], [QUIET, '']], [[P, since], [P, ''], [QUIET, since]]] as Array<Array<[string, string]>>) {
          const q = changeStampsQuery(pairs);
          const name = `${q.name}_${mode}`;
          await client.query(`PREPARE ${name} AS ${q.text}`);
          const r = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN EXECUTE ${name}(${(q.values as string[]).map((v) => lit(v)).join(', ')})`);
          await client.query(`DEALLOCATE ${name}`);
          const plan = r.rows.map((row) => row['QUERY PLAN']).join('\n');
          // Each comparison is an end of an index range: max(xid) of the project, min(xid) from a running xid on.
          expect(plan, name).toMatch(/Function Scan on pg_snapshot_xip[\s\S]*Index Only Scan using changes_feed[^\n]*\n[^\n]*Index Cond: [^\n]*xid >= r\.xid/);
          expect(plan, name).toMatch(/Index Only Scan Backward using changes_feed/);
          expect(plan, name).not.toMatch(/Seq Scan on changes|Hash|Bitmap Heap Scan/);
        }
      }
    } finally {
      await client.query('RESET plan_cache_mode');
      client.release();
    }
  });
});
