/** The worker's answer moves the prepared bytes (and a reject's line) to the importing thread instead of copying them. */
import { MessageChannel, receiveMessageOnPort } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { alertLine, companyLine, executionLine } from '../support/records.js';
import { ownedConcat, ownedCopy, transferList } from '../../src/threads/owned-bytes.js';
import { processLine, type LineResult } from '../../src/ingest/process-line.js';
import { transferables } from '../../src/ingest/prepare-worker.js';

const P = 'proj-a';
const C = '0b5c2a4e-3d1f-4a6b-9c8d-7e6f5a4b3c2d';
const F = 'f1e2d3c4-b5a6-4978-8a9b-0c1d2e3f4a5b';
const ALERT = 'aa5c2a4e-3d1f-4a6b-9c8d-7e6f5a4b3c2d';

function prepared(line: string, gzipLevel: number | null = 6): LineResult {
  return processLine(Buffer.from(line, 'utf8'), gzipLevel);
}

describe('transferList', () => {
  it('takes owned bytes once each and never a view into shared memory', () => {
    const owned = ownedCopy(Buffer.from('{"a":1}'));
    const joined = ownedConcat([Buffer.from('ab'), Buffer.from('cd')]);
    const pooled = Buffer.from('{"a":1}'); // a slice of Node's shared pool
    const list = transferList([owned, owned, joined, pooled, owned.subarray(1), null, undefined, Buffer.alloc(0)]);
    expect(joined.toString()).toBe('abcd');
    expect(list).toEqual([owned.buffer, joined.buffer]);
  });
});

describe('transferables', () => {
  it('lists the body and gzip bytes of every record (and of an alert\'s summary), each in an ArrayBuffer of its own', () => {
    const results = [prepared(companyLine(P, C, F)), prepared(alertLine(P, ALERT, C, F)), prepared(executionLine(P, C, 1))];
    const list = transferables(results);
    expect(list).toHaveLength(8);
    const alert = results[1]!;
    if (alert.kind !== 'record' || alert.upsert.kind !== 'alert') throw new Error('expected an alert');
    expect(list).toContain(alert.upsert.listing.summary.body.buffer);
    expect(list).toContain(alert.upsert.listing.summary.deflated!.buffer);
    for (const r of results) {
      if (r.kind !== 'record') throw new Error('expected a record');
      expect(list).toContain(r.upsert.body.buffer);
      expect(list).toContain(r.upsert.deflated!.buffer);
      expect(r.upsert.body.buffer.byteLength).toBe(r.upsert.body.length);
      expect(r.upsert.deflated!.buffer.byteLength).toBe(r.upsert.deflated!.length);
    }
  });

  it('lists a reject only by the line it carries back, and a record without gzip bytes by its body', () => {
    const noGzip = prepared(executionLine(P, C, 2), null);
    const line = ownedCopy(Buffer.from('{"kind":"alert"}'));
    const reject = processLine(line, 6);
    if (reject.kind !== 'reject' || noGzip.kind !== 'record') throw new Error('expected a reject and a record');
    expect(transferables([reject])).toEqual([]);
    expect(transferables([{ ...reject, line }, noGzip])).toEqual([line.buffer, noGzip.upsert.body.buffer]);
  });

  it('moves the bytes through a real port unchanged, leaving nothing behind', () => {
    const result = prepared(alertLine(P, ALERT, C, F));
    if (result.kind !== 'record') throw new Error('expected a record');
    const body = Buffer.from(result.upsert.body);
    const gz = Buffer.from(result.upsert.deflated!);
    const { port1, port2 } = new MessageChannel();
    port1.postMessage({ results: [result] }, transferables([result]));
    const received = receiveMessageOnPort(port2)!.message as { results: { upsert: { body: Uint8Array; deflated: Uint8Array } }[] };
    port1.close();
    expect(Buffer.from(received.results[0]!.upsert.body).equals(body)).toBe(true);
    expect(Buffer.from(received.results[0]!.upsert.deflated).equals(gz)).toBe(true);
    expect(result.upsert.body.length).toBe(0); // detached: moved, not copied
  });
});
