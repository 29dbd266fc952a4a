/** The alert columns of an alert's listing (src/store/alert-listing.ts), as writes, copies and the backfill name them. */
import { SUMMARY_COLUMNS } from './record-columns.js';
import type { AlertListing } from './store.js';

/** The listing's columns, in the order alertListingValues lists them. */
export const ALERT_LISTING_COLUMNS = [
  'status',
  'severity',
  'category',
  'alert_type',
  'customer_key',
  'assigned_to',
  'seen',
  'created_key',
  'updated_key',
  SUMMARY_COLUMNS.etag,
  SUMMARY_COLUMNS.body,
  SUMMARY_COLUMNS.layout,
  SUMMARY_COLUMNS.deflated,
] as const;

/** ALERT_LISTING_COLUMNS as a select or insert list. */
export const ALERT_LISTING_COLUMN_LIST = ALERT_LISTING_COLUMNS.join(', ');

/** The SET clause of an upsert that takes an alert's new listing. */
export const ALERT_LISTING_UPDATES = ALERT_LISTING_COLUMNS.map((c) => `${c} = excluded.${c}`).join(', ');

/** A listing's values in ALERT_LISTING_COLUMNS order; `seen` as the dialect stores a boolean (SQLite 1/0). */
export function alertListingValues(l: AlertListing, bool: (b: boolean) => unknown): unknown[] {
  const s = l.summary;
  return [l.status, l.severity, l.category, l.type, l.customerKey, l.assignedTo, bool(l.seen), l.createdKey, l.updatedKey, s.etag, s.body, s.layout, s.deflated];
}

/** The listing of an exported alert row that read ALERT_LISTING_COLUMNS. */
export function alertListingOfColumns(r: Record<string, unknown>): AlertListing {
  const deflated = r[SUMMARY_COLUMNS.deflated];
  return {
    status: r.status as string,
    severity: r.severity as string,
    category: r.category as string,
    type: r.alert_type as string,
    customerKey: r.customer_key as string,
    assignedTo: r.assigned_to as string | null,
    // SQLite answers 0/1 and PostgreSQL booleans; truthiness reads both.
    seen: Boolean(r.seen),
    createdKey: r.created_key as string,
    updatedKey: r.updated_key as string,
    summary: {
      etag: r[SUMMARY_COLUMNS.etag] as string,
      body: r[SUMMARY_COLUMNS.body] as Buffer,
      layout: r[SUMMARY_COLUMNS.layout] as string | null,
      deflated: deflated === null ? null : (deflated as Buffer),
    },
  };
}
