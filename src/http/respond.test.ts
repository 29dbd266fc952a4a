import zlib from 'node:zlib';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import type { RecordBytes } from '../wire/record-bytes.js';
import { layoutRecord } from '../wire/record-layout.js';
import { pickEncoding } from './accept.js';
import { sendAnswer } from './respond.js';

/** A stored record of `size` JSON bytes, with its gzip pieces stored or not. */
function record(size: number, gzipStored: boolean): RecordBytes {
  const body = Buffer.from(JSON.stringify({ id: 'r', text: 'x'.repeat(size - 20) }).padEnd(size, ' '));
  return { etag: 'r', body, ...layoutRecord(body, { documents: null, gzipLevel: gzipStored ? 6 : null }) };
}

/** Serves `items` as one page and answers what a request with `encoding` got, and the tokens charged. */
async function page(items: RecordBytes[], encoding: string): Promise<{ encoding: string | undefined; etag: string; length: number; charged: number[] }> {
  const charged: number[] = [];
  const app = Fastify();
  app.get('/', async (request, reply) => sendAnswer(request, reply, items, pickEncoding(request.headers['accept-encoding']), { etag: 'e', cacheControl: 'no-store', charge: (n) => charged.push(n) }));
  const res = await app.inject({ url: '/', headers: { 'accept-encoding': encoding } });
  await app.close();
  return { encoding: res.headers['content-encoding'] as string | undefined, etag: String(res.headers.etag), length: res.rawPayload.length, charged };
}

describe('sendAnswer', () => {
  it('serves a gzip page whose rows were stored with and without gzip bytes (read as a gzip answer reads them)', async () => {
    const withGz = { ...record(2000, true), body: null };
    const withoutGz = record(3000, false);
    const app = Fastify();
    app.get('/', async (request, reply) => sendAnswer(request, reply, [withGz, withoutGz, withGz], pickEncoding(request.headers['accept-encoding']), { etag: 'e', cacheControl: 'no-store' }));
    const res = await app.inject({ url: '/', headers: { 'accept-encoding': 'gzip' } });
    await app.close();
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    const items = JSON.parse(zlib.gunzipSync(res.rawPayload).toString('utf8')) as { text: string }[];
    expect(items.map((i) => i.text.length)).toEqual([1980, 2980, 1980]);

    // Past the bound of compression per request too: the rows read without plain bytes leave gzip the only answer.
    const large = await page([withGz, record(300 * 1024, false)], 'gzip');
    expect(large.encoding).toBe('gzip');
  });

  it('compresses per request only up to 256 KiB of JSON: a larger br-only answer is sent uncompressed', async () => {
    const small = await page([record(200 * 1024, false)], 'br');
    expect(small.encoding).toBe('br');
    expect(small.etag).toBe('"e-br"');
    const large = await page([record(300 * 1024, false)], 'br');
    expect(large.encoding).toBeUndefined();
    expect(large.etag).toBe('"e"');
    expect(large.length).toBe(300 * 1024 + 2);
  });

  it('serves stored gzip at any size, and compresses per request with gzip only up to the same bound when none is stored', async () => {
    const stored = await page([record(300 * 1024, true)], 'gzip');
    expect(stored.encoding).toBe('gzip');
    const unstored = await page([record(300 * 1024, false)], 'gzip');
    expect(unstored.encoding).toBeUndefined();
    const smallUnstored = await page([record(10 * 1024, false)], 'gzip');
    expect(smallUnstored.encoding).toBe('gzip');
  });

  it('charges one token per started 32 KiB beyond the first, doubled when compressed per request, and nothing for a small answer', async () => {
    expect((await page([record(10 * 1024, true)], 'gzip')).charged).toEqual([]);
    expect((await page([record(10 * 1024, true)], 'identity')).charged).toEqual([]);
    // 100 KiB + brackets: 4 started 32 KiB, the door took 1.
    expect((await page([record(100 * 1024, true)], 'gzip')).charged).toEqual([3]);
    expect((await page([record(100 * 1024, true)], 'identity')).charged).toEqual([3]);
    expect((await page([record(100 * 1024, false)], 'br')).charged).toEqual([7]);
    expect((await page([record(10 * 1024, false)], 'br')).charged).toEqual([1]);
    // Sent uncompressed past the bound: charged for its size only.
    expect((await page([record(300 * 1024, false)], 'br')).charged).toEqual([9]);
  });

  it('charges one token per started 50 items of a page, even when its answer is 304', async () => {
    const items = Array.from({ length: 120 }, () => record(100, true));
    expect((await page(items, 'gzip')).charged).toEqual([2]);
    const charged: number[] = [];
    const app = Fastify();
    app.get('/', async (request, reply) => sendAnswer(request, reply, items, pickEncoding(request.headers['accept-encoding']), { etag: 'e', cacheControl: 'no-store', charge: (n) => charged.push(n) }));
    const res = await app.inject({ url: '/', headers: { 'accept-encoding': 'gzip', 'if-none-match': '"e-gz"' } });
    await app.close();
    expect(res.statusCode).toBe(304);
    expect(charged).toEqual([2]);
  });

  it('sends br at a quality that decodes to the same bytes', async () => {
    const item = record(50 * 1024, false);
    const charged: number[] = [];
    const app = Fastify();
    app.get('/', async (request, reply) => sendAnswer(request, reply, item, pickEncoding(request.headers['accept-encoding']), { etag: 'e', cacheControl: 'no-store', charge: (n) => charged.push(n) }));
    const res = await app.inject({ url: '/', headers: { 'accept-encoding': 'br' } });
    await app.close();
    expect(zlib.brotliDecompressSync(res.rawPayload).equals(item.body!)).toBe(true);
  });
});
