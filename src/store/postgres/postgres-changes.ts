/**
 * The change feed's SQL on PostgreSQL. A sequence number is taken when a row is written, not when
 * its transaction commits, so a reader could see seq 11 committed while seq 10 is still to come.
 * Entries are therefore positioned by (xid, seq) and a page serves only entries whose xid is below
 * the xmin of its own snapshot: every transaction below it has ended, and no transaction can get
 * an id below it later, so nothing can appear behind a position once it was served.
 */
import type pg from 'pg';
import type { ChangeEntry } from '../change-items.js';
import { BACKFILL_META_KEY, type BackfillRow, type BackfillSql } from '../changes-backfill.js';
import type { BatchedStatement } from '../read-batcher.js';
import type { ChangePosition, StoredChange } from '../store.js';

/** The channel a writing transaction notifies, with its xid and project as payload. */
export const CHANGES_CHANNEL = 'ccr_changes';

/** Rows per statement, bounded by the parameter limit (five per entry). */
const CHUNK = 1000;

const UPSERT_CHANGES_TAIL = `ON CONFLICT (project, record) DO UPDATE SET xid = pg_current_xact_id(), seq = nextval('changes_seq'),
  record_key = excluded.record_key, etag = excluded.etag, item = excluded.item`;

/** The multi-row VALUES list of `entries` and its parameters. */
function valuesOf(entries: readonly ChangeEntry[]): { tuples: string; values: unknown[] } {
  const values: unknown[] = [];
  const tuples = entries.map((c) => {
    values.push(c.project, c.record, c.recordKey, c.etag, c.item);
    const n = values.length;
    return `($${n - 4}, $${n - 3}, $${n - 2}, $${n - 1}, $${n})`;
  });
  return { tuples: tuples.join(', '), values };
}

/**
 * Writes entries in the caller's transaction: an entry already there moves (a new xid and seq,
 * from the column defaults on insert).
 */
export async function writeChanges(client: pg.ClientBase, entries: readonly ChangeEntry[]): Promise<void> {
  for (let i = 0; i < entries.length; i += CHUNK) {
    const { tuples, values } = valuesOf(entries.slice(i, i + CHUNK));
    await client.query({ text: `INSERT INTO changes (project, record, record_key, etag, item) VALUES ${tuples} ${UPSERT_CHANGES_TAIL}`, values });
  }
}

/**
 * Writes a batch's entries (at least one) and notifies every replica's listener of the projects
 * written (payload: the transaction's xid and the project; delivered at commit): the last chunk
 * and the notification are one statement, so a batch of up to CHUNK records costs one round trip
 * more. Answers the xid.
 */
export async function writeChangesAndNotify(client: pg.ClientBase, entries: readonly ChangeEntry[]): Promise<bigint> {
  const last = Math.max(0, entries.length - CHUNK);
  await writeChanges(client, entries.slice(0, last));
  const { tuples, values } = valuesOf(entries.slice(last));
  const r = await client.query<{ xid: string }>({
    text: `WITH written AS (INSERT INTO changes (project, record, record_key, etag, item) VALUES ${tuples} ${UPSERT_CHANGES_TAIL} RETURNING project)
      SELECT pg_notify('${CHANGES_CHANNEL}', pg_current_xact_id()::text || ' ' || p.project), pg_current_xact_id()::text AS xid
      FROM (SELECT DISTINCT project FROM written) p`,
    values,
  });
  return BigInt(r.rows[0]!.xid);
}

/** A page of the feed: one range scan of changes_feed, only below the snapshot's xmin. */
export const CHANGES_PAGE: pg.QueryConfig = {
  name: 'ccr_changes_page',
  text: `SELECT c.xid::text AS xid, c.seq::text AS seq, c.record_key, c.etag, convert_from(c.item, 'UTF8') AS item
    FROM changes c WHERE c.project = $1 AND (c.xid, c.seq) > ($2::xid8, $3::bigint)
      AND c.xid < pg_snapshot_xmin(pg_current_snapshot())
    ORDER BY c.xid, c.seq LIMIT $4`,
};

/**
 * Change stamps of several projects in one statement, one row per (project, since) pair ('' for
 * no since): the statement's snapshot, and whether the project has an entry written by a
 * transaction that `since` did not see (running then, or begun later) and that has committed
 * since. An update rewrites its entry's xid, so every committed change of the project shows here;
 * the scans are index ranges of changes_feed, however old the oldest running transaction. Every
 * comparison is an end of an index range (the project's max(xid); for each running xid, the first
 * entry's xid from it on), a shape no statistics turn into a scan: as IN (SELECT ...) the planner
 * hashed the running xids, and as = ANY it read the whole table once its statistics said most
 * entries are the project's, a scan per stamp for a probe that finds nothing. A hot standby's
 * snapshot lists no running xids (pg_current_snapshot shows only the primary's own), so a
 * snapshot without any counts every entry from its xmin on as unseen: exact on a primary, where
 * such a snapshot has xmin = xmax, and at worst a page read again on a replica.
 *
 * The pairs are a VALUES list of scalar parameters, not arrays: PostgreSQL prices an array's
 * generic plan for ten elements and so planned every execution again; a VALUES list of a fixed
 * length it plans once. So there is a statement per length in STAMP_SLOTS, the pairs padded to the
 * next one by repeating the last.
 */
function stampsOf(slots: number): pg.QueryConfig {
  const pairs = Array.from({ length: slots }, (_, i) => `($${2 * i + 1}::text, $${2 * i + 2}::text)`).join(', ');
  return {
    name: `ccr_change_stamps_${slots}`,
    text: `SELECT s.project AS p, s.since AS k, pg_current_snapshot()::text AS stamp, CASE WHEN s.since = '' THEN false ELSE COALESCE(
      t.top >= pg_snapshot_xmax(s.since::pg_snapshot)
      OR EXISTS (SELECT 1 FROM pg_snapshot_xip(s.since::pg_snapshot) r(xid)
        WHERE (SELECT min(c.xid) FROM changes c WHERE c.project = s.project AND c.xid >= r.xid) = r.xid)
      OR (NOT EXISTS (SELECT pg_snapshot_xip(s.since::pg_snapshot)) AND t.top >= pg_snapshot_xmin(s.since::pg_snapshot)),
      false) END AS changed
    FROM (VALUES ${pairs}) AS s(project, since)
      CROSS JOIN LATERAL (SELECT max(c.xid) AS top FROM changes c WHERE c.project = s.project) t`,
  };
}

/** The lengths of the stamps statements: a turn asking more pairs than the last runs several. */
export const STAMP_SLOTS = [1, 2, 4, 8, 16, 32] as const;
const STAMPS = new Map(STAMP_SLOTS.map((n) => [n, stampsOf(n)]));

/** The stamps statement for `pairs` (at most the last of STAMP_SLOTS), with its values padded to its length. */
export function changeStampsQuery(pairs: ReadonlyArray<readonly [project: string, since: string]>): pg.QueryConfig {
  const slots = STAMP_SLOTS.find((n) => n >= pairs.length)!;
  const padded = [...pairs, ...Array.from({ length: slots - pairs.length }, () => pairs.at(-1)!)];
  return { ...STAMPS.get(slots)!, values: padded.flat() };
}

/** How the batcher groups a turn's stamp checks: all projects together; the statements run are changeStampsQuery's. */
export const CHANGE_STAMPS: BatchedStatement = { operation: 'changeStamp', name: 'ccr_change_stamps', text: '' };

/** Whether anything servable follows a position. */
export const CHANGES_AFTER: pg.QueryConfig = {
  name: 'ccr_changes_after',
  text: `SELECT 1 FROM changes c WHERE c.project = $1 AND (c.xid, c.seq) > ($2::xid8, $3::bigint)
      AND c.xid < pg_snapshot_xmin(pg_current_snapshot()) LIMIT 1`,
};

/** The parameters of a position (the beginning: xid 0, seq 0). */
export function positionValues(after: ChangePosition | undefined): [string, string] {
  return after === undefined ? ['0', '0'] : [after.xid, after.seq];
}

/** A page row as the driver returns it. */
export interface ChangePageRow {
  xid: string;
  seq: string;
  record_key: string;
  etag: string | null;
  item: string;
}

/** A stored change of a page row: the item read as text crosses as itself, not hex (see BODY_AS_TEXT). */
export function storedChange(r: ChangePageRow): StoredChange {
  return { position: { xid: r.xid, seq: r.seq }, recordKey: r.record_key, etag: r.etag ?? '', body: Buffer.from(r.item, 'utf8'), layout: null, deflated: null };
}

const BACKFILL_READS = {
  customer: `SELECT project, customer_key AS key, is_company, etag, convert_from(body, 'UTF8') AS body FROM customers
    WHERE has_record AND (project, customer_key) > ($1, $2) ORDER BY project, customer_key LIMIT $3`,
  alert: `SELECT project, alert_key AS key, etag, convert_from(body, 'UTF8') AS body FROM alerts
    WHERE (project, alert_key) > ($1, $2) ORDER BY project, alert_key LIMIT $3`,
  execution: `SELECT project, customer_key AS key, execution_id, etag, NULL AS body FROM executions
    WHERE (project, customer_key, execution_id) > ($1, $2, $3) ORDER BY project, customer_key, execution_id LIMIT $4`,
} as const;

/** The backfill's statements on the pool; every key sorts after '' (a project id is never empty). */
export function postgresChangesBackfill(pool: pg.Pool): BackfillSql {
  return {
    pending: async () => (await pool.query('SELECT 1 FROM meta WHERE key = $1', [BACKFILL_META_KEY])).rowCount === 1,
    read: async (table, after, limit) => {
      const start = after ?? (table === 'execution' ? ['', '', ''] : ['', '']);
      return (await pool.query<BackfillRow>(BACKFILL_READS[table], [...start, limit])).rows;
    },
    write: async (entries) => {
      const values: unknown[] = [];
      const tuples = entries.map((c) => {
        values.push(c.project, c.record, c.recordKey, c.etag, c.item);
        const n = values.length;
        return `($${n - 4}, $${n - 3}, $${n - 2}, $${n - 1}, $${n})`;
      });
      // One statement, its own transaction; an entry a writer made meanwhile is newer and stays.
      await pool.query(`INSERT INTO changes (project, record, record_key, etag, item) VALUES ${tuples.join(', ')} ON CONFLICT (project, record) DO NOTHING`, values);
    },
    done: async () => void (await pool.query('DELETE FROM meta WHERE key = $1', [BACKFILL_META_KEY])),
  };
}
