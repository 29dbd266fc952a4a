import { describe, expect, it } from 'vitest';
import { documentPlaces } from './json-splices.js';
import { fieldPlaces } from './json-ranges.js';
import { hasSplices, layoutRecord, parseLayout } from './record-layout.js';

const documents = documentPlaces([['documents', '[]']]);

const withDocument = Buffer.from(JSON.stringify({ id: 'a', documents: [{ objectKey: 'k1', filename: 'f.pdf', presignedUrl: 'stale' }] }));
const withoutDocument = Buffer.from(JSON.stringify({ id: 'b', documents: null }));

describe('stored layouts', () => {
  it('marks a laid out record with document URLs as spliced, and one without as not', () => {
    const spliced = layoutRecord(withDocument, { documents, gzipLevel: 6 });
    const plain = layoutRecord(withoutDocument, { documents, gzipLevel: 6 });
    expect(hasSplices(spliced.layout)).toBe(true);
    expect(hasSplices(plain.layout)).toBe(false);
    expect(hasSplices(layoutRecord(withDocument, { documents, gzipLevel: null }).layout)).toBe(true);
    expect(hasSplices(null)).toBe(false);
  });

  it('gives the splices whether or not the pieces are asked for', () => {
    const { layout } = layoutRecord(withDocument, { documents, gzipLevel: 6 });
    const full = parseLayout(layout);
    const splicesOnly = parseLayout(layout, false);
    expect(splicesOnly.splices).toEqual(full.splices);
    expect(full.splices).toHaveLength(1);
    expect(full.splices[0]!.objectKey).toBe('k1');
    expect(full.pieces).toHaveLength(2);
  });

  it('does not parse a layout flagged without splices when only the splices are asked for', () => {
    const { layout } = layoutRecord(withoutDocument, { documents, gzipLevel: 6 });
    expect(parseLayout(layout).pieces).toHaveLength(1);
    expect(parseLayout(layout, false)).toEqual({ splices: [], pieces: [], rangesRevision: 1 });
    // Text that is no JSON past its flags shows it is not read.
    expect(parseLayout('[1,2,not json', false)).toEqual({ splices: [], pieces: [], rangesRevision: 1 });
    expect(() => parseLayout('[1,2,not json')).toThrow(SyntaxError);
    expect(() => parseLayout('[1,1,not json', false)).toThrow(SyntaxError);
  });

  it('reads layouts stored before they carried flags, by decoding them', () => {
    const splices = [[10, 17, 'k1', 'f.pdf', null]];
    const pieces = [[0, 12, 305419896, 10], [12, 9, 2596069104, 30]];
    const both = JSON.stringify({ s: splices, p: pieces });
    expect(hasSplices(both)).toBe(true);
    expect(parseLayout(both)).toEqual({
      splices: [{ start: 10, end: 17, objectKey: 'k1', filename: 'f.pdf', mimetype: undefined }],
      pieces: [{ offset: 0, length: 12, crc: 305419896, rawLength: 10 }, { offset: 12, length: 9, crc: 2596069104, rawLength: 30 }],
      rangesRevision: 1,
    });
    expect(hasSplices(JSON.stringify({ s: splices }))).toBe(true);
    const piecesOnly = JSON.stringify({ p: [[0, 12, 305419896, 10]] });
    expect(hasSplices(piecesOnly)).toBe(false);
    expect(parseLayout(piecesOnly, false).splices).toEqual([]);
    expect(parseLayout(piecesOnly).pieces).toHaveLength(1);
  });

  it('keeps the revision of the field list its ranges were found with, the first when none is named', () => {
    const fields = fieldPlaces([{ path: 'documents', class: 'documents', mask: 'null' }]);
    const revised = parseLayout(layoutRecord(withDocument, { documents, gzipLevel: null, fields, fieldsRevision: 3 }).layout);
    expect(revised.rangesRevision).toBe(3);
    expect(revised.ranges).toHaveLength(1);
    expect(parseLayout(layoutRecord(withDocument, { documents, gzipLevel: null, fields }).layout).rangesRevision).toBe(1);
  });
});
