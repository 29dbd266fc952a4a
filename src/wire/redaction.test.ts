import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { Alert } from '../contract/alert.js';
import { alertSummaryOf } from '../contract/alert-summary.js';
import { ALERT_SUMMARY_FIELDS, FIELD_CLASSES, FIELD_REVISIONS } from '../contract/field-classes.js';
import { validateRecord } from '../contract/validators.js';
import { ALERT_FIELDS_REVISION_2, PERSONAL, PERSONAL_TEXTS, personalAlert } from '../../test/support/personal-alert.js';
import { documentPlaces } from './json-splices.js';
import { fieldPlaces, findRanges } from './json-ranges.js';
import { layoutRecord } from './record-layout.js';
import { render, type Rendered } from './render.js';
import { viewOf, withheld } from './redaction.js';
import { ALERT_DOCUMENT_PATHS } from '../contract/document-places.js';
import type { RecordBytes } from './record-bytes.js';

const PII = FIELD_CLASSES.pii.bit;
const DOCS = FIELD_CLASSES.documents.bit;
const SCREENING = FIELD_CLASSES.screening.bit;
const ALERT_ID = '0f4c2a8e-3b1d-4e6f-9a7c-5d2b8e1f3a60';

const alert = {
  id: 'a',
  notes: [
    {
      name: 'Called Jane Roe',
      description: null,
      data: { phone: '+44 20 7946 0000' },
      documents: [{ objectKey: 'k1', filename: 'jane passport.pdf', presignedUrl: 'stale', description: 'front' }],
    },
  ],
  screeningProviderData: { searchResult: { search_term: 'Jane Roe', hits: [{ doc: { name: 'Jane R.', aka: [{ name: 'J. Roe' }] } }] } },
  transactions: [{ transactionInfo: { amount: '1', counterparty: { name: 'Bob Payee', iban: 'GB00' } } }],
};

function stored(record: unknown): RecordBytes {
  const body = Buffer.from(JSON.stringify(record));
  const { layout, deflated } = layoutRecord(body, {
    documents: documentPlaces(ALERT_DOCUMENT_PATHS),
    gzipLevel: 6,
    fields: viewOf('alert', 7)!.places,
    fieldsRevision: FIELD_REVISIONS.alert,
  });
  return { etag: `e${body.length}`, body, layout, deflated };
}

const text = (r: Rendered | Promise<Rendered>): Buffer => (r as Rendered).bytes;

describe('redacted answers', () => {
  it('marks nested classified values, an enclosing range first, and leaves out a null that is its own mask', () => {
    const body = Buffer.from(JSON.stringify({ ...alert, duplicateData: { original: { customerInfo: null } } }));
    const ranges = findRanges(body, fieldPlaces([{ path: 'screeningProviderData', class: 'screening', mask: 'null' }, { path: 'screeningProviderData.searchResult.search_term', class: 'pii', mask: 'text' }, { path: 'duplicateData.original.customerInfo', class: 'pii', mask: 'null' }]));
    expect(ranges.map((r) => body.subarray(r.start, r.end).toString())).toEqual([JSON.stringify(alert.screeningProviderData), '"Jane Roe"']);
    expect(withheld(ranges, SCREENING | PII)).toHaveLength(1);
    expect(withheld(ranges, PII)).toHaveLength(1);
  });

  it('replaces each withheld class by its mask, signs the URLs left, and lays gzip out to the same bytes', () => {
    const record = stored(alert);
    const sign = () => 'https://signed.example/x';
    for (const bits of [PII, DOCS, SCREENING, PII | DOCS, PII | SCREENING, 7]) {
      const view = viewOf('alert', bits)!;
      const plain = text(render(record, 'identity', sign, view));
      const parsed = JSON.parse(plain.toString()) as typeof alert;
      expect(gunzipSync(text(render(record, 'gzip', sign, view)))).toEqual(plain);
      const note = parsed.notes[0]!;
      expect(note.name).toBe(bits & PII ? '[redacted]' : 'Called Jane Roe');
      expect(note.data).toEqual(bits & PII ? null : alert.notes[0]!.data);
      expect(note.documents[0]!.filename).toBe(bits & PII ? '[redacted]' : 'jane passport.pdf');
      expect(note.documents[0]!.presignedUrl).toBe(bits & DOCS ? '[redacted]' : 'https://signed.example/x');
      expect(parsed.transactions[0]!.transactionInfo.counterparty).toEqual(bits & PII ? null : alert.transactions[0]!.transactionInfo.counterparty);
      if (bits & SCREENING) expect(parsed.screeningProviderData).toBeNull();
      else expect(parsed.screeningProviderData.searchResult.hits[0]!.doc).toEqual(bits & PII ? { name: '[redacted]', aka: [] } : alert.screeningProviderData.searchResult.hits[0]!.doc);
    }
  });

  it('serves a page of records each in the view, and a record with nothing withheld as stored', () => {
    const plainRecord = stored({ id: 'b', notes: [] });
    const page = [stored(alert), plainRecord];
    const view = viewOf('alert', PII)!;
    const out = JSON.parse(text(render(page, 'identity', () => 'u', view)).toString()) as (typeof alert)[];
    expect(out[0]!.notes[0]!.name).toBe('[redacted]');
    expect(out[1]).toEqual({ id: 'b', notes: [] });
    expect(gunzipSync(text(render(page, 'gzip', () => 'u', view))).toString()).toBe(JSON.stringify(out));
  });

  it('finds the ranges of a record laid out before fields were classified by scanning it', () => {
    const body = Buffer.from(JSON.stringify(alert));
    const old = layoutRecord(body, { documents: documentPlaces(ALERT_DOCUMENT_PATHS), gzipLevel: 6 });
    const record = { etag: 'old', body, ...old };
    const out = JSON.parse(text(render(record, 'identity', () => 'u', viewOf('alert', PII))).toString()) as typeof alert;
    expect(out.notes[0]!.name).toBe('[redacted]');
  });

  it('withholds what else a screening hit matched of the person and the subjects of credential results, showing what each check was', () => {
    const credential = (subject: Record<string, unknown>) => ({ id: 'urn:c', type: ['VerifiableCredential'], credentialSubject: subject, credentialStatus: { id: 's', type: 'Iden3commRevocationStatusV1.0' }, issuer: 'did:i', credentialSchema: { id: 'x', type: 'y' } });
    const record = stored({
      id: 'c',
      screeningProviderData: { searchResult: { hits: [{ doc: { match_types_details: [{ name_matches: [], secondary_matches: [{ match_types: ['exact_birth_year_match'], query_term: '1990' }] }] } }] } },
      results: [
        { data: { IDInformation: credential({ id: 'did:subject', reviewAnswer: 'GREEN', documentType: 'PASSPORT', personalData: { fullName: 'Jane Roe', birthDate: '1990-02-09' } }) } },
        { data: { ProofOfResidence: credential({ country: 'GBR', streetName: '1 High St', postalCode: 'N1', base64: 'aGk=', passport: 'P1' }) } },
        { data: { RulesEngineInputData: { email: 'jane@example.com' }, ruleData: { attribute: 'Customer/identityData/age', value: 34 } } },
      ],
    });
    const out = JSON.parse(text(render(record, 'identity', () => 'u', viewOf('alert', PII))).toString());
    expect(out.screeningProviderData.searchResult.hits[0].doc.match_types_details[0].secondary_matches).toEqual([{ match_types: ['exact_birth_year_match'], query_term: null }]);
    expect(out.results[0].data.IDInformation.credentialSubject).toEqual({ id: null, reviewAnswer: 'GREEN', documentType: 'PASSPORT', personalData: null });
    expect(out.results[1].data.ProofOfResidence.credentialSubject).toEqual({ country: 'GBR', streetName: null, postalCode: null, base64: null, passport: null });
    expect(out.results[1].data.ProofOfResidence.issuer).toBe('did:i');
    expect(out.results[2].data).toEqual({ RulesEngineInputData: null, ruleData: { attribute: 'Customer/identityData/age', value: 34 } });
    const full = JSON.parse(text(render(record, 'identity', () => 'u', undefined)).toString());
    expect(full.results[0].data.IDInformation.credentialSubject.personalData.fullName).toBe('Jane Roe');
  });

  it('finds the ranges again when a layout found them with an earlier revision of the field list, and trusts those of the current one', () => {
    const body = Buffer.from(JSON.stringify(alert));
    const noneFound = (revision: number) => ({ etag: `r${revision}`, body, ...layoutRecord(body, { documents: documentPlaces(ALERT_DOCUMENT_PATHS), gzipLevel: 6, fields: fieldPlaces([]), fieldsRevision: revision }) });
    const nameOf = (record: RecordBytes) => (JSON.parse(text(render(record, 'identity', () => 'u', viewOf('alert', PII))).toString()) as typeof alert).notes[0]!.name;
    expect(nameOf(noneFound(FIELD_REVISIONS.alert - 1))).toBe('[redacted]');
    expect(nameOf(noneFound(FIELD_REVISIONS.alert))).toBe('Called Jane Roe');
  });

  it("withholds an alert's own texts, the screened person's birth year, countries and keywords and an on-chain hash, in the alert and its snapshots, valid under the contract", () => {
    const record = stored(personalAlert('p', ALERT_ID));
    const view = viewOf('alert', PII)!;
    const plain = text(render(record, 'identity', () => 'u', view)).toString();
    expect(PERSONAL_TEXTS.filter((p) => plain.includes(p))).toEqual([]);
    const out = JSON.parse(plain);
    expect(validateRecord('alert', out).ok).toBe(true);
    const snapshot = out.audits.at(-1).record;
    for (const a of [out, snapshot]) {
      expect([a.name, a.description, a.reason]).toEqual(['[redacted]', null, null]);
      const s = a.screeningProviderData;
      expect([s.requestData.filters.birth_year, s.searchResult.filters.birth_year, s.searchResult.hits[0].doc.keywords]).toEqual([null, null, []]);
      const info = s.searchEntities[0].key_information;
      expect([info.primary_country, info.country_names, info.keywords]).toEqual([null, null, null]);
      expect(a.transactions[0].transactionInfo).toMatchObject({ hash: null, hashUrl: null, blockchainChainId: '1', amount: '1.5' });
    }
    expect([out.type, out.status, snapshot.status]).toEqual(['KYC Drop-off', 'Under Investigation', 'Closed']);
    expect(gunzipSync(text(render(record, 'gzip', () => 'u', view))).toString()).toBe(plain);
    const full = JSON.parse(text(render(record, 'identity', () => 'u', undefined)).toString());
    expect([full.name, full.audits.at(-1).record.transactions[0].transactionInfo.hash]).toEqual([PERSONAL.name, PERSONAL.hash]);
  });

  it('finds the ranges again of an alert laid out with the second revision of the field list, masking what the third added', () => {
    const body = Buffer.from(JSON.stringify(personalAlert('p', ALERT_ID)));
    const laidOut = (revision: number) => ({ etag: `second-list-as-${revision}`, body, ...layoutRecord(body, { documents: documentPlaces(ALERT_DOCUMENT_PATHS), gzipLevel: 6, fields: fieldPlaces(ALERT_FIELDS_REVISION_2), fieldsRevision: revision }) });
    const shown = (record: RecordBytes) => text(render(record, 'identity', () => 'u', viewOf('alert', PII))).toString();
    expect(PERSONAL_TEXTS.filter((p) => shown(laidOut(2)).includes(p))).toEqual([]);
    // The same ranges named as the current revision's are trusted: the rescan is what masked them.
    expect(PERSONAL_TEXTS.filter((p) => shown(laidOut(FIELD_REVISIONS.alert)).includes(p))).toEqual(PERSONAL_TEXTS);
  });

  it("masks an alert summary's texts as the alert's, scanning a summary stored before they were classified", () => {
    const body = Buffer.from(JSON.stringify(alertSummaryOf(personalAlert('p', ALERT_ID) as unknown as Alert)));
    const unclassified = { etag: 'summary', body, ...layoutRecord(body, { documents: null, gzipLevel: 6 }) };
    const out = JSON.parse(text(render([unclassified], 'identity', () => 'u', viewOf('alertSummary', PII))).toString());
    expect(out[0]).toEqual({ ...JSON.parse(body.toString()), name: '[redacted]', description: null, reason: null });
    expect(viewOf('alertSummary', DOCS)).toBeUndefined();
  });

  it("shows a key without screening:read no count of an alert summary's screening hits, a summary laid out by the first field list too", () => {
    const summary = alertSummaryOf(personalAlert('p', ALERT_ID) as unknown as Alert);
    expect(summary.counts.screeningHits).toBeGreaterThan(0);
    const body = Buffer.from(JSON.stringify(summary));
    const firstList = fieldPlaces(ALERT_SUMMARY_FIELDS.filter((f) => f.path !== 'counts.screeningHits'));
    const earlier = { etag: 'summary-r1', body, ...layoutRecord(body, { documents: null, gzipLevel: 6, fields: firstList, fieldsRevision: 1, parsed: summary }) };
    const current = { etag: 'summary', body, ...layoutRecord(body, { documents: null, gzipLevel: 6, fields: viewOf('alertSummary', 7)!.places, fieldsRevision: FIELD_REVISIONS.alertSummary, parsed: summary }) };
    for (const r of [earlier, current]) {
      for (const wire of ['identity', 'gzip'] as const) {
        const rendered = render([r], wire, () => 'u', viewOf('alertSummary', SCREENING));
        const out = JSON.parse((wire === 'gzip' ? gunzipSync(text(rendered)) : text(rendered)).toString()) as { counts: Record<string, number> }[];
        expect(out[0]).toEqual({ ...summary, counts: { ...summary.counts, screeningHits: 0 } });
      }
    }
  });

  it('names the field list revision in a view tag once it is past the first', () => {
    expect(viewOf('alert', PII)!.tag).toBe(`r${PII}v${FIELD_REVISIONS.alert}`);
    expect(viewOf('company', PII)!.tag).toBe(`r${PII}`);
  });

  it('has no view for a kind with no field of the withheld classes', () => {
    expect(viewOf('execution', PII | SCREENING)).toBeUndefined();
    expect(viewOf('execution', DOCS)).toBeDefined();
    expect(viewOf('company', 0)).toBeUndefined();
  });
});
