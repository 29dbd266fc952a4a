import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { documentPlaces } from './json-splices.js';
import type { RecordBytes } from './record-bytes.js';
import { layoutRecord } from './record-layout.js';
import { fieldsFor, hasStoredGzip, isSpliced, render, type Rendered } from './render.js';

const documents = documentPlaces([['documents', '[]']]);

function record(id: string, gzipLevel: number | null): RecordBytes {
  const body = Buffer.from(JSON.stringify({ id, documents: [{ objectKey: `k-${id}`, presignedUrl: 'stale' }], text: 'y'.repeat(300) }));
  return { etag: id, body, ...layoutRecord(body, { documents, gzipLevel }) };
}

const sign = (s: { objectKey?: string }): string => `https://files.example/${s.objectKey}`;
const served = (id: string): string => JSON.stringify({ id, documents: [{ objectKey: `k-${id}`, presignedUrl: `https://files.example/k-${id}` }], text: 'y'.repeat(300) });

async function rendered(r: Rendered | Promise<Rendered>): Promise<Rendered> {
  return r;
}

describe('render', () => {
  it('renders a record as identity JSON with its signed URL in place of the stored one', async () => {
    const r = record('a', 6);
    expect(isSpliced(r)).toBe(true);
    const out = await rendered(render(r, 'identity', sign));
    expect(out.bytes.toString()).toBe(served('a'));
    expect(out.jsonLength).toBe(out.bytes.length);
    expect(out.compressedNow).toBe(false);
    expect(out.signed).toBe(true);
  });

  it('says an answer without spliced values holds nothing signed for it', async () => {
    const plain = { body: Buffer.from('{"id":"p"}'), etag: 'e', layout: null, deflated: null };
    const out = await rendered(render([plain], 'identity'));
    expect(out.bytes.toString()).toBe('[{"id":"p"}]');
    expect(out.signed).toBe(false);
  });

  it('lays gzip out from the stored pieces, a page and a record alike, decoding to the identity bytes', async () => {
    const page = [record('a', 6), record('b', 6)];
    expect(hasStoredGzip(page)).toBe(true);
    const out = await rendered(render(page, 'gzip', sign));
    expect(zlib.gunzipSync(out.bytes).toString()).toBe(`[${served('a')},${served('b')}]`);
    expect(out.jsonLength).toBe(zlib.gunzipSync(out.bytes).length);
    expect(out.compressedNow).toBe(false);
  });

  it('deflates now a page row stored without pieces, read beside rows read without their JSON', async () => {
    const stored = { ...record('a', 6), body: null };
    const out = await rendered(render([stored, record('b', null)], 'gzip', sign));
    expect(zlib.gunzipSync(out.bytes).toString()).toBe(`[${served('a')},${served('b')}]`);
    expect(out.compressedNow).toBe(false);
  });

  it('compresses a record stored without pieces whole, and waits for a signer that answers later', async () => {
    const r = record('c', null);
    expect(hasStoredGzip(r)).toBe(false);
    const later = render(r, 'gzip', (s) => Promise.resolve(sign(s)));
    expect(later).toBeInstanceOf(Promise);
    const out = await later;
    expect(out.compressedNow).toBe(true);
    expect(zlib.gunzipSync(out.bytes).toString()).toBe(served('c'));
  });

  it('asks a read for the deflate pieces only for gzip, and for the JSON of a gzip answer only where none are stored', () => {
    expect(fieldsFor('identity')).toEqual({ body: 'always', layout: 'always' });
    expect(fieldsFor('gzip')).toEqual({ body: 'withoutDeflated', layout: 'always', deflated: 'always' });
  });
});
