import { describe, expect, it } from 'vitest';
import zlib from 'node:zlib';
import { documentPlaces, findSplices, staticSegments } from './json-splices.js';
import { deflatedPiece, gzipFromPieces, storedPiece, type GzipPiece } from './gzip-pieces.js';

/** How import and read are meant to compose: segments deflated once, URLs in stored blocks. */
describe('a gzip list response built from stored record pieces', () => {
  const records = [0, 1, 2].map((n) =>
    Buffer.from(JSON.stringify({
      id: `alert-${n}`,
      notes: [{ documents: [{ objectKey: `k${n}a`, filename: 'é.pdf', presignedUrl: 'stale' }] }],
      audits: [{ record: { notes: [{ documents: [{ objectKey: `k${n}b`, presignedUrl: 'stale' }] }] } }],
      padding: 'x'.repeat(70_000 * n),
    })),
  );
  // Import time: per record, the splices and the deflated static segments.
  const stored = records.map((body) => {
    const splices = findSplices(body, documentPlaces([['notes', '[]', 'documents', '[]'], ['audits', '[]', 'record', 'notes', '[]', 'documents', '[]']]));
    return { splices, segments: staticSegments(body, splices).map((s) => deflatedPiece(s)) };
  });

  it('decompresses to the same bytes as splicing the plain records', () => {
    const url = (key: string | undefined, t: number): string => `https://files.example/${key}?expires=${t}`;
    const pieces: GzipPiece[] = [storedPiece(Buffer.from('['))];
    stored.forEach(({ splices, segments }, r) => {
      if (r > 0) pieces.push(storedPiece(Buffer.from(',')));
      splices.forEach((s, k) => {
        pieces.push(segments[k]!, storedPiece(Buffer.from(JSON.stringify(url(s.objectKey, 42)))));
      });
      pieces.push(segments[splices.length]!);
    });
    pieces.push(storedPiece(Buffer.from(']')));

    const parsed = JSON.parse(zlib.gunzipSync(Buffer.concat(gzipFromPieces(pieces))).toString('utf8'));
    const want = records.map((b) => {
      const v = JSON.parse(b.toString('utf8'));
      v.notes[0].documents[0].presignedUrl = url(v.notes[0].documents[0].objectKey, 42);
      v.audits[0].record.notes[0].documents[0].presignedUrl = url(v.audits[0].record.notes[0].documents[0].objectKey, 42);
      return v;
    });
    expect(parsed).toEqual(want);
  });
});
