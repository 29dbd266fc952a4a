/**
 * PostgreSQL's change stamps compare a snapshot with the project's feed entries by index probes:
 * the transactions a stamp saw running are looked up one by one, never by reading every entry of
 * the project (a stamp taken while another transaction runs, as the access log's often do).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANGE_STAMP, CHANGE_STAMPS } from '../../../src/store/postgres/postgres-changes.js';
import { openPostgresStore, type PostgresStore } from '../../../src/store/postgres/postgres-store.js';
import { throwawaySchema, type ThrowawaySchema } from '../../support/postgres-admin.js';
import { postgresWanted } from '../../support/stores.js';
import { alert } from '../../support/upserts.js';

const P = 'stamped';
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

  it('probes the index for each running transaction a stamp lists, never a scan of the entries, with the table analyzed', async () => {
    const first = xids[0]!;
    const last = xids.at(-1)!;
    const since = `${first}:${last + 1n}:${xids[2]},${xids[5]}`;
    // Most entries are this project's and its statistics say so: the shape in which = ANY was read by a scan of the table.
    await store.writeBatch(Array.from({ length: 2000 }, (_, i) => alert(P, `bulk-${i}`, '2024-01-02T00:00:00Z')));
    const client = await store.pool.connect();
    try {
      await client.query('ANALYZE changes');
      // The statement of several stamps asked in a turn, and of one; custom and generic plans alike.
      for (const mode of ['force_custom_plan', 'force_generic_plan']) {
        await client.query(`SET plan_cache_mode = ${mode}`);
        const lit = (v: string): string => client.escapeLiteral(v);
        // EXPLAIN EXECUTE takes no bound parameters: the arguments are written as literals.
        for (const [name, text, args] of [
          ['several', CHANGE_STAMPS.text, `${lit(P)}, ARRAY[${lit(since)}, '']`],
          ['one', CHANGE_STAMP.text, `${lit(P)}, ${lit(since)}`],
        ] as const) {
          await client.query(`PREPARE probe_${name} AS ${text}`);
          const r = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN EXECUTE probe_${name}(${args})`);
          await client.query(`DEALLOCATE probe_${name}`);
          const plan = r.rows.map((row) => row['QUERY PLAN']).join('\n');
          // Each comparison is an end of an index range: max(xid) of the project, min(xid) from a running xid on.
          expect(plan, `${mode}, ${name}`).toMatch(/Function Scan on pg_snapshot_xip[\s\S]*Index Only Scan using changes_feed[^\n]*\n[^\n]*Index Cond: [^\n]*xid >= r\.xid/);
          expect(plan, `${mode}, ${name}`).toMatch(/Index Only Scan Backward using changes_feed/);
          expect(plan, `${mode}, ${name}`).not.toMatch(/Seq Scan on changes|Hash|Bitmap Heap Scan/);
        }
      }
    } finally {
      await client.query('RESET plan_cache_mode');
      client.release();
    }
  });
});
