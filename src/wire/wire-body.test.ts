import { describe, expect, it } from 'vitest';
import { documentPlaces } from './json-splices.js';
import { hasSplices, parseLayout, shapeBody } from './wire-body.js';

const documents = documentPlaces([['documents', '[]']]);

const withDocument = Buffer.from(JSON.stringify({ id: 'a', documents: [{ objectKey: 'k1', filename: 'f.pdf', presignedUrl: 'stale' }] }));
const withoutDocument = Buffer.from(JSON.stringify({ id: 'b', documents: null }));

describe('stored layouts', () => {
  it('marks a shaped body with document URLs as spliced, and one without as not', () => {
    const spliced = shapeBody(withDocument, { documents, gzipLevel: 6 });
    const plain = shapeBody(withoutDocument, { documents, gzipLevel: 6 });
    expect(hasSplices(spliced.wire)).toBe(true);
    expect(hasSplices(plain.wire)).toBe(false);
    expect(hasSplices(null)).toBe(false);
  });

  it('gives the splices whether or not the pieces are asked for', () => {
    const { wire } = shapeBody(withDocument, { documents, gzipLevel: 6 });
    const full = parseLayout(wire);
    const splicesOnly = parseLayout(wire, false);
    expect(splicesOnly.splices).toEqual(full.splices);
    expect(full.splices).toHaveLength(1);
    expect(full.splices[0]!.objectKey).toBe('k1');
    expect(full.pieces).toHaveLength(2);
  });

  it('does not parse a layout without splices when only the splices are asked for', () => {
    const { wire } = shapeBody(withoutDocument, { documents, gzipLevel: 6 });
    expect(parseLayout(wire).pieces).toHaveLength(1);
    expect(parseLayout(wire, false)).toEqual({ splices: [], pieces: [] });
    // Text that is no JSON at all shows it is not read.
    expect(parseLayout('{"p":not json', false)).toEqual({ splices: [], pieces: [] });
    expect(() => parseLayout('{"p":not json')).toThrow(SyntaxError);
  });
});
