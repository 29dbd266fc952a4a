import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { FIELD_CLASSES, FIELD_REVISIONS } from '../contract/field-classes.js';
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
