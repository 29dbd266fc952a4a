import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AccessLogEntry } from './access-log.js';
import { AccessLogChunk, entriesOf, type StoredEntry } from './chunk.js';
import { storableText } from '../contract/storable-text.js';

const entryArb: fc.Arbitrary<AccessLogEntry> = fc.record({
  at: fc.date({ min: new Date('2026-01-01'), max: new Date('2026-12-31'), noInvalidDate: true }).map((d) => d.toISOString()),
  keyId: fc.option(fc.uuid(), { nil: null }),
  project: fc.constantFrom('proj-a', 'proj-b', 'prøj-ç'),
  route: fc.constantFrom('/v1/alerts/:id', '/v1/companies/:id/details', 'unmatched'),
  // Any string, lone surrogates and quotes included, as a path parameter may carry.
  recordId: fc.option(fc.oneof(fc.string({ unit: 'binary', maxLength: 40 }), fc.constantFrom('r1', 'r2')), { nil: null }),
  status: fc.integer({ min: 100, max: 599 }),
  requestId: fc.string({ unit: 'grapheme', maxLength: 30 }),
  client: fc.constantFrom('127.0.0.1', '::1', ''),
  // The keys a list answer returned, some shared with other entries' ids.
  records: fc.option(fc.array(fc.oneof(fc.string({ unit: 'binary', maxLength: 20 }), fc.constantFrom('r1', 'r3')), { maxLength: 6 }), { nil: undefined }),
});

describe('AccessLogChunk', () => {
  it('gives back every entry of each project in arrival order (NUL and lone surrogates as U+FFFD), with its time span and distinct records', () => {
    fc.assert(
      fc.property(fc.array(entryArb, { maxLength: 400 }), (entries) => {
        const chunk = new AccessLogChunk();
        for (const e of entries) chunk.add(e);
        expect(chunk.count).toBe(entries.length);
        const projects = [...new Set(entries.map((e) => e.project))];
        const batches = chunk.batches();
        expect(batches.map((b) => b.project)).toEqual(projects);
        for (const b of batches) {
          const own = entries.filter((e) => e.project === b.project);
          const stored = JSON.parse(b.entries) as StoredEntry[];
          const text = (v: string | null): string | null => (v === null ? null : storableText(v));
          const returned = (e: AccessLogEntry): string[] => (e.records ?? []).map(storableText);
          expect(stored.map((s) => s.slice(0, 7))).toEqual(own.map((e) => [e.at, e.keyId, e.route, text(e.recordId), e.status, text(e.requestId), e.client]));
          expect(entriesOf(stored, b.project)).toEqual(own.map((e) => ({ ...e, recordId: text(e.recordId), requestId: text(e.requestId)!, records: returned(e).length > 0 ? returned(e) : undefined })));
          const times = own.map((e) => e.at).sort();
          expect([b.firstAt, b.lastAt]).toEqual([times[0], times.at(-1)]);
          expect(JSON.parse(b.records)).toEqual([...new Set(own.flatMap((e) => [...(e.recordId === null ? [] : [storableText(e.recordId)]), ...returned(e)]))]);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('keeps entries whole across many growths of its buffers', () => {
    const chunk = new AccessLogChunk();
    const long = 'ü€𝄞'.repeat(5_000);
    for (let i = 0; i < 50; i++) chunk.add({ at: '2026-03-01T10:00:00.000Z', keyId: null, project: 'p', route: '/r', recordId: `${long}${i}`, status: 200, requestId: `r-${i}`, client: 'c' });
    const [batch] = chunk.batches();
    const stored = JSON.parse(batch!.entries) as StoredEntry[];
    expect(stored.map((e) => e[3])).toEqual(Array.from({ length: 50 }, (_, i) => `${long}${i}`));
    expect(JSON.parse(batch!.records)).toHaveLength(50);
  });

  it('fills a written chunk\'s buffers again without a byte of the old entries showing, and gives a write tried again the same batches', () => {
    const at = '2026-03-01T10:00:00.000Z';
    const first = new AccessLogChunk();
    for (let i = 0; i < 200; i++) first.add({ at, keyId: 'k', project: 'p', route: '/r', recordId: `${'x'.repeat(300)}${i}`, status: 200, requestId: `old-${i}`, client: 'c', records: [`old-${i}`] });
    const written = first.batches();
    // A retry after a failed write: the chunk is closed, its batches are the ones made the first time.
    expect(first.batches()).toBe(written);
    expect(() => first.add({ at, keyId: 'k', project: 'p', route: '/r', recordId: null, status: 200, requestId: 'late', client: 'c' })).toThrow(/once its batches are made/);
    const second = new AccessLogChunk();
    second.add({ at, keyId: 'k', project: 'p', route: '/r', recordId: 'new', status: 200, requestId: 'new-0', client: 'c' });
    const [batch] = second.batches();
    expect(batch!.entries).toBe(`[["${at}","k","/r","new",200,"new-0","c"]]`);
    expect(batch!.records).toBe('["new"]');
    expect((JSON.parse(written[0]!.entries) as StoredEntry[]).map((e) => e[5])).toEqual(Array.from({ length: 200 }, (_, i) => `old-${i}`));
  });

  it('stores NUL and lone surrogates as U+FFFD, keeping paired surrogates', () => {
    const chunk = new AccessLogChunk();
    chunk.add({ at: '2026-03-01T10:00:00.000Z', keyId: null, project: 'p', route: '/r', recordId: 'a\u0000b\ud800c\udc00😀', status: 400, requestId: 'r\u0000', client: 'c' });
    const [batch] = chunk.batches();
    expect(batch!.entries).not.toMatch(/\\u0000|\\ud[89a-f]/i);
    expect((JSON.parse(batch!.entries) as StoredEntry[])[0]).toEqual(['2026-03-01T10:00:00.000Z', null, '/r', 'a\ufffdb\ufffdc\ufffd😀', 400, 'r\ufffd', 'c']);
    expect(JSON.parse(batch!.records)).toEqual(['a\ufffdb\ufffdc\ufffd😀']);
  });

  it('stores a summary’s count and an answer’s returned records in slots told apart by type, each read back as it was', () => {
    const chunk = new AccessLogChunk();
    const base = { at: '2026-03-01T10:00:00.000Z', keyId: 'k', project: 'p', route: '/v1/r', recordId: null, requestId: '', client: 'c' };
    chunk.add({ ...base, status: 429, count: 7 });
    chunk.add({ ...base, status: 200, records: ['e-1', 'e-2'] });
    chunk.add({ ...base, status: 200, count: 3, records: ['e-3'] });
    chunk.add({ ...base, status: 200, records: [] });
    const [batch] = chunk.batches();
    const stored = JSON.parse(batch!.entries) as StoredEntry[];
    expect(stored.map((s) => s.slice(7))).toEqual([[7], [['e-1', 'e-2']], [3, ['e-3']], []]);
    expect(entriesOf(stored, 'p')).toEqual([
      { ...base, status: 429, count: 7 },
      { ...base, status: 200, records: ['e-1', 'e-2'] },
      { ...base, status: 200, count: 3, records: ['e-3'] },
      { ...base, status: 200 },
    ]);
    expect(JSON.parse(batch!.records)).toEqual(['e-1', 'e-2', 'e-3']);
  });

  it('stores a list of keys once per batch: an entry that returned the same keys again (a page served again) points to the first, and each key is once in the batch', () => {
    const chunk = new AccessLogChunk();
    const base = { at: '2026-03-01T10:00:00.000Z', keyId: 'k', project: 'p', route: '/v1/alerts', recordId: null, status: 200, requestId: 'r', client: 'c' };
    const page = ['a-1', 'a-2', 'lone\ud800'];
    chunk.add({ ...base, records: page });
    chunk.add({ ...base, records: page });
    chunk.add({ ...base, records: ['a-2', 'a-3'] });
    chunk.add({ ...base, records: [...page] });
    const [batch] = chunk.batches();
    const stored = JSON.parse(batch!.entries) as StoredEntry[];
    expect(stored.map((s) => s[7])).toEqual([['a-1', 'a-2', 'lone\ufffd'], { as: 0 }, ['a-2', 'a-3'], { as: 0 }]);
    expect(entriesOf(stored, 'p').map((e) => e.records)).toEqual([['a-1', 'a-2', 'lone\ufffd'], ['a-1', 'a-2', 'lone\ufffd'], ['a-2', 'a-3'], ['a-1', 'a-2', 'lone\ufffd']]);
    expect(JSON.parse(batch!.records)).toEqual(['a-1', 'a-2', 'lone\ufffd', 'a-3']);
  });

  it('replaces NUL and lone surrogates in returned keys, keeping a key that only spells an escape (a backslash then u0000)', () => {
    const chunk = new AccessLogChunk();
    const spelled = 'a\\u0000b';
    const base = { at: '2026-03-01T10:00:00.000Z', keyId: 'k', project: 'p', route: '/v1/r', recordId: null, status: 200, requestId: 'r', client: 'c' };
    chunk.add({ ...base, records: [spelled, 'tab\there'] });
    chunk.add({ ...base, records: ['n\u0000ul', 'lone\ud800', 'pair😀', spelled] });
    const [batch] = chunk.batches();
    expect((JSON.parse(batch!.entries) as StoredEntry[]).map((s) => s[7])).toEqual([
      [spelled, 'tab\there'],
      ['n\ufffdul', 'lone\ufffd', 'pair😀', spelled],
    ]);
    expect(JSON.parse(batch!.records)).toEqual([spelled, 'tab\there', 'n\ufffdul', 'lone\ufffd', 'pair😀']);
  });

  it('reads entries of a batch written before returned records were kept: seven slots, and a summary’s eighth', () => {
    const old = '[["2026-03-01T10:00:00.000Z","k","/v1/alerts/:id","a-1",200,"r1","127.0.0.1"],["2026-03-01T10:00:01.000Z","k","/v1/alerts/:id",null,429,"","127.0.0.1",12]]';
    const entries = entriesOf(JSON.parse(old) as StoredEntry[], 'p');
    expect(entries).toEqual([
      { at: '2026-03-01T10:00:00.000Z', keyId: 'k', project: 'p', route: '/v1/alerts/:id', recordId: 'a-1', status: 200, requestId: 'r1', client: '127.0.0.1' },
      { at: '2026-03-01T10:00:01.000Z', keyId: 'k', project: 'p', route: '/v1/alerts/:id', recordId: null, status: 429, requestId: '', client: '127.0.0.1', count: 12 },
    ]);
    expect(entries.map((e) => 'records' in e)).toEqual([false, false]);
  });
});
