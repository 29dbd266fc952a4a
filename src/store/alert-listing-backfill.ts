/**
 * Fills the listing columns of alerts stored before the alert list existed: computed in
 * JavaScript from each stored record, in keyset chunks, once, when a writable store opens after
 * the migration that added them (it sets the meta flag this clears when done).
 */
import type { Alert } from '../contract/alert.js';
import { alertListingOf } from './alert-listing.js';
import { ALERT_LISTING_COLUMNS, alertListingValues } from './alert-listing-columns.js';
import type { AlertListing } from './store.js';

/** The meta key whose row asks for the backfill. */
export const BACKFILL_FLAG = 'alert_listing_backfill';
/** Alerts read and written per transaction. */
export const BACKFILL_CHUNK_ROWS = 500;
// The level the import stores by default (GZIP_LEVEL): an alert stored with pieces gets summary pieces too.
const BACKFILL_GZIP_LEVEL = 6;

/** The listing of a stored alert, from its JSON; summary deflate pieces only when the alert has its own. */
export function listingOfStoredAlert(body: Buffer | string, deflated: unknown): AlertListing {
  const alert = JSON.parse(typeof body === 'string' ? body : body.toString('utf8')) as Alert;
  return alertListingOf(alert, deflated === null || deflated === undefined ? null : BACKFILL_GZIP_LEVEL);
}

/** What the backfill needs of an adapter's connection. */
export interface BackfillConnection {
  placeholder(n: number): string;
  bool(b: boolean): unknown;
  query(sql: string, params: unknown[]): Promise<Record<string, unknown>[]>;
  /** Runs one chunk's statements in one transaction. */
  writeChunk(statements: { sql: string; params: unknown[] }[]): Promise<void>;
}

/** Runs the backfill when the store's meta row asks for it; answers how many alerts it filled. */
export async function backfillAlertListings(c: BackfillConnection, chunkRows = BACKFILL_CHUNK_ROWS): Promise<number> {
  const p = c.placeholder;
  const flagged = await c.query(`SELECT 1 AS one FROM meta WHERE key = ${p(1)}`, [BACKFILL_FLAG]);
  if (flagged.length === 0) return 0;
  const read = `SELECT project, alert_key, etag, body, gz FROM alerts
    WHERE (project, alert_key) > (${p(1)}, ${p(2)}) AND summary_etag IS NULL ORDER BY project, alert_key LIMIT ${p(3)}`;
  const set = ALERT_LISTING_COLUMNS.map((col, i) => `${col} = ${p(i + 1)}`).join(', ');
  const n = ALERT_LISTING_COLUMNS.length;
  // Only the version read: an alert written meanwhile came with its listing.
  const update = `UPDATE alerts SET ${set} WHERE project = ${p(n + 1)} AND alert_key = ${p(n + 2)} AND etag = ${p(n + 3)}`;
  let after: [string, string] = ['', ''];
  let filled = 0;
  for (;;) {
    const rows = await c.query(read, [...after, chunkRows]);
    if (rows.length === 0) break;
    await c.writeChunk(
      rows.map((r) => ({
        sql: update,
        params: [...alertListingValues(listingOfStoredAlert(r.body as Buffer, r.gz), c.bool), r.project, r.alert_key, r.etag],
      })),
    );
    filled += rows.length;
    const last = rows[rows.length - 1]!;
    after = [last.project as string, last.alert_key as string];
    if (rows.length < chunkRows) break;
  }
  await c.query(`DELETE FROM meta WHERE key = ${p(1)}`, [BACKFILL_FLAG]);
  return filled;
}
