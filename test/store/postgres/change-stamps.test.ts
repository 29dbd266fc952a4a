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

  it('probes the index for each running transaction a stamp lists, never a scan of the project’s entries', async () => {
    const first = xids[0]!;
    const last = xids.at(-1)!;
    const since = `${first}:${last + 1n}:${xids[2]},${xids[5]}`;
    const client = await store.pool.connect();
    try {
      // A table this small is cheaper to read whole: the test asks whether the index serves each probe.
      await client.query('ANALYZE changes; SET enable_seqscan = off');
      // The statement of several stamps asked in a turn, and of one.
      for (const [text, values] of [
        [CHANGE_STAMPS.text, [P, [since, '']]],
        [CHANGE_STAMP.text, [P, since]],
      ] as const) {
        const r = await client.query<{ 'QUERY PLAN': string }>({ text: `EXPLAIN ${text}`, values: [...values] });
        const plan = r.rows.map((row) => row['QUERY PLAN']).join('\n');
        expect(plan).toMatch(/Index Only Scan using changes_feed[\s\S]*xid = ANY/);
        expect(plan).not.toMatch(/Hash|Bitmap Heap Scan|Seq Scan/);
      }
    } finally {
      await client.query('RESET enable_seqscan');
      client.release();
    }
  });
});
