/**
 * An alert's listing: the columns the alert list filters and sorts by and its summary's bytes,
 * computed once from the record (at import, and by the backfill of alerts stored before).
 */
import { hash } from 'node:crypto';
import type { Alert } from '../contract/alert.js';
import { alertSummaryOf } from '../contract/alert-summary.js';
import { FIELD_REVISIONS } from '../contract/field-classes.js';
import { instantKey } from '../contract/index.js';
import { recordKey } from '../contract/record-key.js';
import { ownedCopy } from '../threads/owned-bytes.js';
import { layoutRecord } from '../wire/record-layout.js';
import { placesOf } from '../wire/redaction.js';
import type { AlertListing } from './store.js';

/** The listing of a valid alert record; `gzipLevel` null stores no deflate pieces of the summary. */
export function alertListingOf(alert: Alert, gzipLevel: number | null): AlertListing {
  // Owned memory: an import worker transfers these bytes rather than copying them.
  const summary = alertSummaryOf(alert);
  const body = ownedCopy(Buffer.from(JSON.stringify(summary), 'utf8'));
  return {
    status: alert.status,
    severity: alert.severity,
    category: alert.category,
    type: alert.type,
    customerKey: recordKey(alert.customerId),
    assignedTo: alert.assignedTo,
    seen: alert.seen,
    createdKey: instantKey(alert.createdAt),
    updatedKey: instantKey(alert.updatedAt),
    // The same content hash as a record's etag (src/ingest contentHash).
    // Its classified ranges marked here as a record's are, so a redacted page needs no scan.
    summary: {
      etag: hash('sha256', body, 'base64url').slice(0, 27),
      body,
      ...layoutRecord(body, { documents: null, gzipLevel, fields: placesOf('alertSummary'), fieldsRevision: FIELD_REVISIONS.alertSummary, parsed: summary }),
    },
  };
}
