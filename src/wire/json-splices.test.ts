import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { applySplices, documentPlaces, findSplices as findIn, staticSegments, type DocumentPlace, type Splice } from './json-splices.js';

/** Every object anywhere is a document: for the scanner's mechanics, not what a record uses. */
const ANYWHERE: DocumentPlace = { document: true };
ANYWHERE.anyMember = ANYWHERE;
ANYWHERE.items = ANYWHERE;
const findSplices = (json: string | Buffer): Splice[] => findIn(json, ANYWHERE);
const COMPANY = documentPlaces([['documents', '[]', 'document']]);
const ALERT = documentPlaces([['notes', '[]', 'documents', '[]'], ['audits', '[]', 'record', 'notes', '[]', 'documents', '[]']]);

const signed = (s: Splice): string => `NEW:${JSON.stringify([s.objectKey ?? null, s.filename ?? null, s.mimetype ?? null])}`;

function rewrite(text: string): unknown {
  const body = Buffer.from(text, 'utf8');
  return JSON.parse(Buffer.concat(applySplices(body, findSplices(body), signed)).toString('utf8'));
}

/** What the splice result must equal: the parsed value with every string presignedUrl replaced. */
function expected(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(expected);
  if (v === null || typeof v !== 'object') return v;
  const o = v as Record<string, unknown>;
  // Defined, not assigned: a "__proto__" member must stay an own property, as JSON.parse makes it.
  const out: Record<string, unknown> = {};
  for (const [k, val] of Object.entries(o)) Object.defineProperty(out, k, { value: expected(val), enumerable: true, writable: true, configurable: true });
  if (typeof o.presignedUrl === 'string') {
    const str = (x: unknown): string | undefined => (typeof x === 'string' ? x : undefined);
    out.presignedUrl = signed({
      start: 0, end: 0, objectKey: str(o.objectKey), filename: str(o.filename), mimetype: str(o.mimetype),
    });
  }
  return out;
}

const doc = {
  id: '6f1c2b1e-9d7a-4a6e-8f3e-0c1d2e3f4a5b',
  objectKey: '0b7e2a4c-1d3f-4e5a-9b6c-7d8e9f0a1b2c',
  filename: 'passport — scan "front".pdf',
  mimetype: 'application/pdf',
  presignedUrl: 'https://old.example/files/x?sig=stale',
};

describe('findSplices', () => {
  it('returns the byte range of the presignedUrl value token with its sibling fields', () => {
    const text = JSON.stringify({ name: 'Ünïcødé 😀 Ltd', documents: [{ document: doc }] });
    const [s, ...rest] = findIn(text, COMPANY);
    expect(rest).toEqual([]);
    const bytes = Buffer.from(text, 'utf8');
    expect(bytes.toString('utf8', s!.start, s!.end)).toBe(JSON.stringify(doc.presignedUrl));
    expect(s).toMatchObject({ objectKey: doc.objectKey, filename: doc.filename, mimetype: doc.mimetype });
  });

  it('gives byte offsets, not string indices, after multi-byte characters', () => {
    const text = `{"a":"日本語😀","presignedUrl":"u"}`;
    const [s] = findSplices(text);
    expect(s!.start).toBe(Buffer.byteLength('{"a":"日本語😀","presignedUrl":'));
    expect(s!.start).not.toBe(text.indexOf('"u"'));
  });

  it('reads siblings that come after presignedUrl and leaves absent ones undefined', () => {
    const [s] = findSplices(`{"presignedUrl":"u","mimetype":"image/png"}`);
    expect(s).toEqual({ start: 16, end: 19, objectKey: undefined, filename: undefined, mimetype: 'image/png' });
  });

  it('treats non-string siblings as absent', () => {
    const [s] = findSplices(`{"objectKey":null,"filename":{"x":"y"},"mimetype":["a"],"presignedUrl":"u"}`);
    expect(s).toMatchObject({ objectKey: undefined, filename: undefined, mimetype: undefined });
  });

  it('ignores presignedUrl members whose value is not a string', () => {
    expect(findSplices(`{"presignedUrl":null,"objectKey":"k"}`)).toEqual([]);
    expect(findSplices(`{"presignedUrl":{"presignedUrl":1}}`)).toEqual([]);
  });

  it('does not mistake string contents or sibling objects for members', () => {
    const text = JSON.stringify({
      note: 'says "presignedUrl":"x" and \\"objectKey\\"',
      other: { objectKey: 'not-mine' },
      presignedUrl: 'u',
    });
    const splices = findSplices(text);
    expect(splices).toHaveLength(1);
    expect(splices[0]!.objectKey).toBeUndefined();
  });

  it('decodes escaped keys and values as JSON.parse does', () => {
    const text = '{"\\u0070resignedUrl":"u\\"q","file\\u006eame":"a\\\\b\\u00e9","objectKey":"k\\/1"}';
    const [s] = findSplices(text);
    expect(s).toMatchObject({ filename: 'a\\bé', objectKey: 'k/1' });
    expect(text.slice(s!.start, s!.end)).toBe('"u\\"q"');
  });

  it('handles arbitrary whitespace between tokens', () => {
    const text = '\r\n{ "objectKey" :\t"k" ,\n\n "presignedUrl"\r\n:\r\n "u"\t}  ';
    const [s] = findSplices(text);
    expect(s).toMatchObject({ objectKey: 'k' });
    expect(text.slice(s!.start, s!.end)).toBe('"u"');
  });

  it('orders splices by offset when a nested document closes before its parent', () => {
    const text = JSON.stringify({ objectKey: 'outer', inner: { objectKey: 'inner', presignedUrl: 'b' }, presignedUrl: 'a' });
    const splices = findSplices(text);
    expect(splices.map((s) => s.objectKey)).toEqual(['inner', 'outer']);
  });

  it('replaces every duplicate presignedUrl so no stale URL leaks', () => {
    const text = '{"presignedUrl":"old1","objectKey":"k","presignedUrl":"old2"}';
    const out = Buffer.concat(applySplices(Buffer.from(text), findSplices(text), () => 'fresh')).toString();
    expect(out).toBe('{"presignedUrl":"fresh","objectKey":"k","presignedUrl":"fresh"}');
  });

  it('skips text without presignedUrl without scanning it', () => {
    // Unbalanced on purpose: a scan would throw, the quick check must not scan at all.
    expect(findSplices('{"a":[1,2')).toEqual([]);
  });

  it('rejects malformed text instead of returning wrong offsets', () => {
    expect(() => findSplices('{"presignedUrl":"u')).toThrow(SyntaxError);
    expect(() => findSplices('{"presignedUrl":"u"]')).toThrow(SyntaxError);
    expect(() => findSplices('{"presignedUrl":"u"')).toThrow(SyntaxError);
  });

  it('matches a parse-and-replace for random records, whitespace and unicode', () => {
    const str = fc.oneof(fc.string({ unit: 'grapheme', maxLength: 12 }), fc.string({ unit: 'binary', maxLength: 12 }));
    const field = fc.oneof({ weight: 4, arbitrary: str }, fc.constant(null), fc.integer(), fc.constant(undefined));
    const { tree } = fc.letrec<{ tree: unknown; docObj: unknown }>((tie) => ({
      tree: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        fc.jsonValue({ maxDepth: 2 }),
        tie('docObj'),
        fc.array(tie('tree'), { maxLength: 4 }),
        fc.dictionary(fc.string({ maxLength: 6 }), tie('tree'), { maxKeys: 4 }),
      ),
      docObj: fc
        .tuple(field, field, field, fc.oneof({ weight: 5, arbitrary: str }, fc.constant(null)), tie('tree'))
        .chain(([objectKey, filename, mimetype, presignedUrl, extra]) => {
          const entries = Object.entries({ objectKey, filename, mimetype, presignedUrl, extra });
          return fc.shuffledSubarray(entries, { minLength: entries.length });
        })
        .map((entries) => Object.fromEntries(entries)),
    }));
    const space = fc.constantFrom<string | number | undefined>(undefined, 0, 1, 2, '\t', '\r\n ');
    fc.assert(
      fc.property(tree, space, (value, indent) => {
        const text = JSON.stringify({ root: value }, null, indent);
        expect(rewrite(text)).toEqual(expected(JSON.parse(text)));
      }),
      { numRuns: 400 },
    );
  });
});

describe('findSplices at document places', () => {
  const extra = { objectKey: 'other-project-file', presignedUrl: 'as-stored' };

  it('finds documents only where the places put them, never in extra members', () => {
    const text = JSON.stringify({
      presignedUrl: 'root', objectKey: 'r', attachment: extra,
      documents: [{ document: { ...doc, thumbnail: extra }, scan: extra }, { document: extra, other: [extra] }, extra],
      nested: { documents: [{ document: extra }] },
    });
    const found = findIn(text, COMPANY);
    expect(found.map((s) => s.objectKey)).toEqual([doc.objectKey, 'other-project-file']);
    const bytes = Buffer.from(text);
    expect(found.map((s) => bytes.toString('utf8', s.start, s.end))).toEqual([JSON.stringify(doc.presignedUrl), '"as-stored"']);
    const out = Buffer.concat(applySplices(bytes, found, () => 'fresh')).toString();
    // Seven extra members hold it; one of them sits where a document goes and is replaced.
    expect(out.match(/"as-stored"/g)).toHaveLength(6);
  });

  it("follows arrays and nested paths: an alert's notes and its audit snapshots' notes", () => {
    const note = (k: string): unknown => ({ documents: [{ objectKey: k, presignedUrl: 'u' }], extra: { objectKey: 'x', presignedUrl: 'u' } });
    const text = JSON.stringify({
      notes: [note('n1'), note('n2')],
      audits: [{ record: { notes: [note('a1')], audits: [{ record: { notes: [note('deeper')] } }] } }, { record: null }],
      results: [{ notes: [note('not-a-place')] }],
    });
    expect(findIn(text, ALERT).map((s) => s.objectKey)).toEqual(['n1', 'n2', 'a1']);
  });

  it('matches escaped member names on the path as JSON.parse reads them', () => {
    const text = '{"\\u0064ocuments":[{"docum\\u0065nt":{"objectKey":"k","presignedUrl":"u"}}]}';
    expect(findIn(text, COMPANY).map((s) => s.objectKey)).toEqual(['k']);
  });

  it('ignores a place holding the wrong kind of value', () => {
    for (const text of ['{"documents":{"document":{"presignedUrl":"u"}}}', '{"documents":[[{"presignedUrl":"u"}]]}', '{"documents":[{"document":[{"presignedUrl":"u"}]}]}']) {
      expect(findIn(text, COMPANY)).toEqual([]);
    }
  });
});

describe('applySplices', () => {
  it('returns views of the stored bytes around freshly encoded values', () => {
    const body = Buffer.from('{"presignedUrl":"old","objectKey":"k"}');
    const pieces = applySplices(body, findSplices(body), (s) => `https://x/${s.objectKey}?a="b"`);
    expect(pieces.map((p) => p.toString())).toEqual(['{"presignedUrl":', '"https://x/k?a=\\"b\\""', ',"objectKey":"k"}']);
    expect(pieces[0]!.buffer).toBe(body.buffer); // a slice, not a copy
  });

  it('returns the body as one piece when there is nothing to splice', () => {
    const body = Buffer.from('{"a":1}');
    expect(applySplices(body, [], () => '')).toEqual([body]);
    expect(applySplices(Buffer.alloc(0), [], () => '')).toEqual([]);
  });

  it('handles a value token at the very start and end of the body', () => {
    const body = Buffer.from('"x"');
    const pieces = applySplices(body, [{ start: 0, end: 3, objectKey: undefined, filename: undefined, mimetype: undefined }], () => 'y');
    expect(Buffer.concat(pieces).toString()).toBe('"y"');
  });

  it('refuses splices out of order or out of bounds', () => {
    const body = Buffer.from('{"presignedUrl":"a","x":{"presignedUrl":"b"}}');
    const splices = findSplices(body);
    expect(() => applySplices(body, [...splices].reverse(), () => '')).toThrow(RangeError);
    expect(() => applySplices(body, [{ ...splices[0]!, end: 999 }], () => '')).toThrow(RangeError);
  });
});

describe('staticSegments', () => {
  it('returns one more segment than splices, empty ones included, around each value token', () => {
    const body = Buffer.from('"a"');
    const segments = staticSegments(body, findSplices('{"presignedUrl":"a"}').map((s) => ({ ...s, start: 0, end: 3 })));
    expect(segments.map(String)).toEqual(['', '']);
    const text = Buffer.from('{"presignedUrl":"a","x":[{"presignedUrl":"b"}]}');
    expect(staticSegments(text, findSplices(text)).map(String)).toEqual(['{"presignedUrl":', ',"x":[{"presignedUrl":', '}]}']);
  });
});
