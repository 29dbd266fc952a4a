/** The import pipeline against a real SQLite file: rejects, idempotence, stale records. */
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/store.js';
import { openTestStore, type TestStore } from '../support/store-harness.js';
import { alertLine, companyLine, executionLine } from '../support/records.js';
import { importFiles } from '../../src/ingest/importer.js';

const P = 'proj-a';
const C = '0b5c2a4e-3d1f-4a6b-9c8d-7e6f5a4b3c2d';
const ALERT = 'aa5c2a4e-3d1f-4a6b-9c8d-7e6f5a4b3c2d';
const F = 'f1e2d3c4-b5a6-4978-8a9b-0c1d2e3f4a5b';

let dir: string;
let store: Store;
let testStore: TestStore;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'crs-import-'));
  testStore = await openTestStore(dir);
  store = testStore.store;
});
afterEach(async () => {
  await store.close();
  await testStore.cleanup();
});

function file(name: string, lines: string[]): string {
  const path = join(dir, name);
  writeFileSync(path, lines.join('\n') + '\n');
  return path;
}

describe('import', () => {
  it('rejects bad lines with their line number, JSON path and message, and stores the rest', async () => {
    const bad = JSON.parse(alertLine(P, ALERT, C, F)) as { record: Record<string, unknown> };
    bad.record.severity = 'Critical';
    const input = file('mixed.ndjson', [
      companyLine(P, C, F),
      '{"kind":"alert","record":',
      JSON.stringify(bad),
      '{"kind":"invoice","record":{}}',
      executionLine(P, C, 1),
    ]);
    const summary = await importFiles(store, [input]);
    expect(summary).toEqual({ read: 5, stored: 2, unchanged: 0, stale: 0, rejected: 3, warnings: 0 });
    const rejects = readFileSync(join(dir, 'mixed.ndjson.rejects.ndjson'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { line: number; issues: { path: string; message: string }[] });
    expect(rejects.map((r) => r.line)).toEqual([2, 3, 4]);
    expect(rejects[0]!.issues[0]!.message).toMatch(/not valid JSON/);
    expect(rejects[1]!.issues).toContainEqual({ path: '/record/severity', message: expect.stringMatching(/must be one of: Low, Medium, High/) });
    expect(rejects[2]!.issues[0]).toMatchObject({ path: '/kind' });
    expect(await store.getAlert(P, ALERT)).toBeUndefined();
  });

  it('writes the same rejects, line text included, whether lines are prepared inline or moved to workers', async () => {
    const bad = JSON.parse(alertLine(P, ALERT, C, F)) as { record: Record<string, unknown> };
    bad.record.severity = 'Critical';
    // Long enough that the line owns its memory and is moved to the worker, not copied.
    const badLine = JSON.stringify(bad);
    const input = file('mixed.ndjson', [companyLine(P, C, F), '{"kind":"alert","record":', badLine, executionLine(P, C, 1), '{"kind":"invoice","record":{}}']);
    const inline = join(dir, 'inline.rejects.ndjson');
    const pooled = join(dir, 'pooled.rejects.ndjson');
    await importFiles(store, [input], { workers: 0, rejectsPath: () => inline });
    await importFiles(store, [input], { workers: 1, rejectsPath: () => pooled });
    const texts = readFileSync(pooled, 'utf8').trim().split('\n').map((l) => (JSON.parse(l) as { text?: string }).text);
    expect(texts).toEqual(['{"kind":"alert","record":', badLine, '{"kind":"invoice","record":{}}']);
    expect(readFileSync(pooled, 'utf8')).toBe(readFileSync(inline, 'utf8'));
  });

  it('stops at a batch the store fails to write: the batches before it are stored, none after it is written', async () => {
    const lines = Array.from({ length: 50 }, (_, i) => executionLine(P, C, i));
    const input = file('batches.ndjson', lines);
    let calls = 0;
    const failing: Store = Object.create(store, {
      writeBatch: {
        value: async (items: Parameters<Store['writeBatch']>[0]) => {
          calls++;
          if (calls === 2) throw new Error('disk on fire');
          return store.writeBatch(items);
        },
      },
    }) as Store;
    await expect(importFiles(failing, [input], { batchRecords: 10, workers: 1 })).rejects.toThrow('disk on fire');
    // The batch after the failed one may have been gathered, but it is never written.
    expect(calls).toBe(2);
    const page = await store.listExecutions(P, C, { order: 'asc' }, undefined, 200);
    expect(page).toHaveLength(10);
  });

  it('changes nothing when the same file is imported again', async () => {
    const input = file('a.ndjson', [companyLine(P, C, F), alertLine(P, ALERT, C, F), executionLine(P, C, 1), executionLine(P, C, 2)]);
    expect(await importFiles(store, [input])).toMatchObject({ stored: 4, unchanged: 0 });
    const before = (await store.getAlert(P, ALERT))!.body!;
    expect(await importFiles(store, [input])).toEqual({ read: 4, stored: 0, unchanged: 4, stale: 0, rejected: 0, warnings: 0 });
    expect((await store.getAlert(P, ALERT))!.body!.equals(before)).toBe(true);
  });

  it('keeps a newer record when an older version arrives, counting it stale', async () => {
    const newer = JSON.parse(alertLine(P, ALERT, C, F)) as { record: Record<string, unknown> };
    const older = structuredClone(newer);
    newer.record.updatedAt = '2024-05-01T00:00:00Z';
    newer.record.status = 'Closed';
    older.record.updatedAt = '2024-05-01T01:00:00+02:00'; // an hour earlier, despite the later wall clock
    older.record.status = 'Open';
    await importFiles(store, [file('new.ndjson', [JSON.stringify(newer)])]);
    const summary = await importFiles(store, [file('old.ndjson', [JSON.stringify(older)])]);
    expect(summary).toMatchObject({ stale: 1, stored: 0 });
    expect(JSON.parse((await store.getAlert(P, ALERT))!.body!.toString()).status).toBe('Closed');
  });

  it('stores record bytes exactly as given: case, offsets, big and exponent numbers', async () => {
    const line = companyLine(P, C.toUpperCase(), F).replace('"riskScore":"High"', '"riskScore":"High","big":12345678901234567890,"exp":1e21,"frac":0.10');
    await importFiles(store, [file('exact.ndjson', [line])]);
    const body = (await store.getCompany(P, C))!.body!.toString();
    expect(body).toBe(JSON.stringify(JSON.parse(line).record).replace('12345678901234567000', '12345678901234567890').replace('1e+21', '1e21').replace('"frac":0.1', '"frac":0.10'));
    expect(body).toContain(C.toUpperCase());
  });

  it('counts fields outside the contract as warnings and keeps them', async () => {
    const line = companyLine(P, C, F).replace('"riskScore":"High"', '"riskScore":"High","riskNotes":"watch list"');
    const summary = await importFiles(store, [file('extra.ndjson', [line])]);
    expect(summary).toMatchObject({ stored: 1, warnings: 1 });
    expect(JSON.parse((await store.getCompany(P, C))!.body!.toString()).riskNotes).toBe('watch list');
  });

  it('reads gzip input, CRLF line ends and a leading BOM', async () => {
    const path = join(dir, 'in.ndjson.gz');
    writeFileSync(path, gzipSync(Buffer.from('\ufeff' + [companyLine(P, C, F), executionLine(P, C, 3)].join('\r\n') + '\r\n')));
    expect(await importFiles(store, [path])).toMatchObject({ read: 2, stored: 2, rejected: 0 });
  });

  it('rejects a line over the size limit without holding it, and goes on', async () => {
    const input = file('long.ndjson', [`{"kind":"alert","record":{"x":"${'a'.repeat(5000)}"}}`, companyLine(P, C, F)]);
    const summary = await importFiles(store, [input], { maxLineBytes: 1000 });
    expect(summary).toMatchObject({ read: 2, stored: 1, rejected: 1 });
    expect(existsSync(join(dir, 'long.ndjson.rejects.ndjson'))).toBe(true);
  });

  it('rejects invalid UTF-8 rather than altering it', async () => {
    const path = join(dir, 'bad-utf8.ndjson');
    const line = Buffer.from(companyLine(P, C, F).replace('"status":"Active"', '"status":"Active","note":"XX"'));
    const at = line.indexOf('XX');
    line[at] = 0xc3;
    line[at + 1] = 0x28;
    writeFileSync(path, Buffer.concat([line, Buffer.from('\n')]));
    expect(await importFiles(store, [path])).toMatchObject({ rejected: 1, stored: 0 });
  });
  it('writes batches one at a time and in input order while the next is prepared', async () => {
    const lines = [companyLine(P, C, F), ...Array.from({ length: 9 }, (_, i) => executionLine(P, C, i))];
    let writing = 0;
    let most = 0;
    const order: number[] = [];
    const slow: Store = Object.create(store) as Store;
    slow.writeBatch = async (items) => {
      writing++;
      most = Math.max(most, writing);
      // Later batches would overtake a slow earlier one if writes were not in turn.
      await new Promise((r) => setTimeout(r, 30 - 5 * order.length));
      order.push(items.length);
      const out = await store.writeBatch(items);
      writing--;
      return out;
    };
    const summary = await importFiles(slow, [file('batches.ndjson', lines)], { batchRecords: 3 });
    expect(summary).toMatchObject({ read: 10, stored: 10, rejected: 0 });
    expect(most).toBe(1);
    expect(order).toEqual([3, 3, 3, 1]);
    expect((await store.listExecutions(P, C, { order: 'asc' }, undefined, 50)).length).toBe(9);
  });

  it('stops at a failed write with its error, keeping the batches written before it', async () => {
    const lines = [companyLine(P, C, F), ...Array.from({ length: 8 }, (_, i) => executionLine(P, C, i))];
    let calls = 0;
    const failing: Store = Object.create(store) as Store;
    failing.writeBatch = async (items) => {
      if (++calls === 2) throw new Error('disk full');
      return store.writeBatch(items);
    };
    await expect(importFiles(failing, [file('failing.ndjson', lines)], { batchRecords: 3 })).rejects.toThrow('disk full');
    expect(await store.getCompany(P, C)).toBeDefined();
    expect((await store.listExecutions(P, C, { order: 'asc' }, undefined, 50)).length).toBe(2);
  });
});
