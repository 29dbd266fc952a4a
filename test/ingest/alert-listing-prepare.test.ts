/** What the import prepares for the alert list: the filter columns and summary bytes of each alert, or a reason it cannot be stored. */
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { Alert } from '../../src/contract/alert.js';
import { alertSummaryOf } from '../../src/contract/alert-summary.js';
import { FIELD_REVISIONS } from '../../src/contract/field-classes.js';
import { instantKey } from '../../src/contract/index.js';
import { processLine } from '../../src/ingest/process-line.js';
import { gzipFromPieces } from '../../src/wire/gzip-pieces.js';
import { gzipPieces, parseLayout } from '../../src/wire/record-layout.js';
import { listedAlert, listedAlertLine } from '../support/alert-list-records.js';

describe('an alert prepared for the list', () => {
  it('carries its filter columns (customer by lookup key, instants as keys) and its summary bytes, gzip pieces included', () => {
    // Number 4: upper-case customer id, createdAt written at +02:00; number 5: updatedAt at -03:00.
    for (const i of [4, 5]) {
      const a = listedAlert('p', 9, i);
      const r = processLine(Buffer.from(listedAlertLine(a)), 6);
      if (r.kind !== 'record' || r.upsert.kind !== 'alert') throw new Error('expected an alert');
      const { summary, ...columns } = r.upsert.listing;
      expect(columns).toEqual({
        status: a.record.status,
        severity: a.record.severity,
        category: a.record.category,
        type: a.record.type,
        customerKey: a.record.customerId.toLowerCase(),
        assignedTo: a.record.assignedTo,
        seen: a.record.seen,
        createdKey: instantKey(new Date(a.createdMs).toISOString()),
        updatedKey: instantKey(new Date(a.updatedMs).toISOString()),
      });
      const json = JSON.stringify(alertSummaryOf(a.record as unknown as Alert));
      expect(summary.body.toString('utf8')).toBe(json);
      const pieces = gzipPieces(summary, parseLayout(summary.layout), () => '');
      expect(gunzipSync(Buffer.concat(gzipFromPieces(pieces!))).toString('utf8')).toBe(json);
      expect(summary.etag).not.toBe(r.upsert.etag);
    }
  });

  it('stores no summary gzip pieces when the import stores none', () => {
    const r = processLine(Buffer.from(listedAlertLine(listedAlert('p', 9, 1))), null);
    if (r.kind !== 'record' || r.upsert.kind !== 'alert') throw new Error('expected an alert');
    expect(r.upsert.listing.summary.deflated).toBeNull();
    expect(parseLayout(r.upsert.listing.summary.layout).pieces).toEqual([]);
  });

  it("marks the ranges of the summary's personal text, found with the summary field list's revision", () => {
    const a = listedAlert('p', 9, 1);
    const r = processLine(Buffer.from(listedAlertLine({ ...a, record: { ...a.record, reason: 'Closed after a call with Jane Roe' } })), 6);
    if (r.kind !== 'record' || r.upsert.kind !== 'alert') throw new Error('expected an alert');
    const { body, layout } = r.upsert.listing.summary;
    const parsed = parseLayout(layout);
    expect(parsed.rangesRevision).toBe(FIELD_REVISIONS.alertSummary);
    // Then the count of its screening hits (none here), withheld with the screening data.
    expect(parsed.ranges!.map((x) => body!.subarray(x.start, x.end).toString())).toEqual([JSON.stringify(a.record.name), JSON.stringify(a.record.description), '"Closed after a call with Jane Roe"', '0']);
  });

  it('refuses an alert whose assignedTo holds NUL, which its column cannot hold, naming the field', () => {
    const a = listedAlert('p', 9, 2);
    const line = listedAlertLine({ ...a, record: { ...a.record, assignedTo: 'ana\u0000lyst' } });
    const r = processLine(Buffer.from(line), 6);
    expect(r).toMatchObject({ kind: 'reject', issues: [{ path: '/record/assignedTo' }] });
  });
});
