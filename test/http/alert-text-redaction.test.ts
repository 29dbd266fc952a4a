/**
 * A key with `alerts:read` and `screening:read` but not `pii:read` reads an alert, its audit
 * snapshots and the alert list without the alert's own texts, the screened person's birth year,
 * countries and keywords or the on-chain transaction's hash; an alert stored with the ranges of
 * the earlier field list, and a summary stored before its fields were classified, are masked the same.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Alert } from '../../src/contract/alert.js';
import { alertSummaryOf } from '../../src/contract/alert-summary.js';
import { ALERT_DOCUMENT_PATHS } from '../../src/contract/document-places.js';
import { FIELD_CLASSES, FIELD_REVISIONS } from '../../src/contract/field-classes.js';
import { validateRecord } from '../../src/contract/validators.js';
import { processLine } from '../../src/ingest/process-line.js';
import { fieldPlaces } from '../../src/wire/json-ranges.js';
import { documentPlaces } from '../../src/wire/json-splices.js';
import { layoutRecord, parseLayout } from '../../src/wire/record-layout.js';
import { ALERT_FIELDS_REVISION_2, PERSONAL, PERSONAL_TEXTS, personalAlert } from '../support/personal-alert.js';
import { shownAs } from '../support/personal-values.js';
import { startTestService, type TestService } from '../support/test-service.js';

const P = 'proj-alert-texts';
const PII = FIELD_CLASSES.pii.bit;
/** Imported now: its ranges found with the current field list. */
const CURRENT = personalAlert(P, '1e7b3c5a-2d4f-4a6b-8c9d-0e1f2a3b4c5d');
/** Written as an earlier import left it: the alert's ranges found with revision 2, its summary laid out with none. */
const EARLIER = personalAlert(P, '2f8c4d6b-3e5a-4b7c-9d0e-1f2a3b4c5d6e');
const ALERTS = [CURRENT, EARLIER];

let svc: TestService;
let full: string;
let noPii: string;

/** The store write of `record` as an import before the third revision of the alert field list made it. */
function writtenEarlier(record: Record<string, unknown>) {
  const r = processLine(Buffer.from(JSON.stringify({ kind: 'alert', record })), 6);
  if (r.kind !== 'record' || r.upsert.kind !== 'alert') throw new Error('expected an alert');
  const u = r.upsert;
  const fields = fieldPlaces(ALERT_FIELDS_REVISION_2);
  const summary = u.listing.summary;
  return {
    ...u,
    ...layoutRecord(u.body, { documents: documentPlaces(ALERT_DOCUMENT_PATHS), gzipLevel: 6, fields, fieldsRevision: 2 }),
    listing: { ...u.listing, summary: { ...summary, ...layoutRecord(summary.body!, { documents: null, gzipLevel: 6 }) } },
  };
}

beforeAll(async () => {
  svc = await startTestService([JSON.stringify({ kind: 'alert', record: CURRENT })]);
  const earlier = writtenEarlier(EARLIER);
  expect(parseLayout(earlier.layout).rangesRevision).toBe(2);
  expect(parseLayout(earlier.listing.summary.layout).ranges).toBeUndefined();
  await svc.store.writeBatch([earlier]);
  full = (await svc.key(P)).key;
  noPii = (await svc.key(P, { scopes: ['alerts:read', 'screening:read', 'documents:read'] })).key;
});
afterAll(async () => svc?.close());

/** The answer's text, decoded (fetch decodes gzip itself), with its ETag. */
async function get(path: string, key: string, encoding: 'identity' | 'gzip'): Promise<{ text: string; etag: string | null }> {
  const res = await fetch(`${svc.url}/v1${path}`, { headers: { authorization: `Bearer ${key}`, 'accept-encoding': encoding } });
  expect(res.status).toBe(200);
  return { text: await res.text(), etag: res.headers.get('etag') };
}

/** What the checks below read of an alert or a snapshot. */
interface Shown {
  name: unknown;
  description: unknown;
  reason: unknown;
  screeningProviderData: {
    searchResult: { filters: { birth_year: unknown }; hits: { doc: { keywords: unknown } }[] };
    requestData: { filters: { birth_year: unknown } };
    searchEntities: { key_information: Record<string, unknown> }[];
  };
  transactions: { transactionInfo: Record<string, unknown> }[];
}
type ShownAlert = Shown & { audits: { record: Shown }[] };

const leaked = (text: string): string[] => PERSONAL_TEXTS.filter((p) => text.includes(p));

/** The record without its note documents' URLs, which are signed per request. */
function unsigned(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, (k, v: unknown) => (k === 'presignedUrl' && v !== '[redacted]' ? 'signed' : v)));
}

describe("an alert's personal texts, for a key without pii:read", () => {
  it.each([
    ['imported with the current field list', CURRENT],
    ['stored with the ranges of the earlier one', EARLIER],
  ])('are masked in the alert and its audit snapshot, %s, in identity and gzip', async (_, record) => {
    for (const encoding of ['identity', 'gzip'] as const) {
      const { text, etag } = await get(`/alerts/${record.id as string}`, noPii, encoding);
      expect(leaked(text)).toEqual([]);
      const body = JSON.parse(text) as ShownAlert;
      expect(validateRecord('alert', body).ok).toBe(true);
      expect(unsigned(body)).toEqual(unsigned(shownAs('alert', record, PII)));
      const snapshot = body.audits.at(-1)!.record;
      for (const a of [body, snapshot]) {
        expect([a.name, a.description, a.reason]).toEqual(['[redacted]', null, null]);
        expect(a.screeningProviderData.searchResult.filters.birth_year).toBeNull();
        expect(a.screeningProviderData.requestData.filters.birth_year).toBeNull();
        expect(a.screeningProviderData.searchResult.hits[0]!.doc.keywords).toEqual([]);
        expect(a.screeningProviderData.searchEntities[0]!.key_information).toMatchObject({ primary_country: null, country_names: null, keywords: null });
        expect(a.transactions[0]!.transactionInfo).toMatchObject({ hash: null, hashUrl: null, amount: '1.5' });
      }
      expect(etag).toContain(`.r${PII}v${FIELD_REVISIONS.alert}`);
    }
    const shown = JSON.parse((await get(`/alerts/${record.id as string}`, full, 'identity')).text) as ShownAlert;
    expect([shown.name, shown.audits.at(-1)!.record.transactions[0]!.transactionInfo.hashUrl]).toEqual([PERSONAL.name, PERSONAL.hashUrl]);
  });

  it("are masked in the alert list's summaries as in the alert, with a page ETag of their own", async () => {
    const summaries = new Map(ALERTS.map((a) => [a.id as string, alertSummaryOf(a as unknown as Alert)]));
    const masked = await get('/alerts?limit=10', noPii, 'identity');
    expect(leaked(masked.text)).toEqual([]);
    const rows = JSON.parse(masked.text) as { id: string }[];
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row).toEqual({ ...summaries.get(row.id), name: '[redacted]', description: null, reason: null });
    expect((await get('/alerts?limit=10', noPii, 'gzip')).text).toBe(masked.text);
    const shown = await get('/alerts?limit=10', full, 'identity');
    for (const row of JSON.parse(shown.text) as { id: string }[]) expect(row).toEqual(summaries.get(row.id));
    expect(shown.etag).not.toBe(masked.etag);
  });
});
