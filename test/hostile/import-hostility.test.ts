/** Hostile import input: each line is rejected with a clear reason or stored exactly, and the rest still imports. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordKey } from '../../src/contract/record-key.js';
import { importFiles } from '../../src/ingest/importer.js';
import type { Store } from '../../src/store/store.js';
import { alertLine, companyLine } from '../support/records.js';
import { openTestStore, type TestStore } from '../support/store-harness.js';

const P = 'proj-h';
const F = 'f1e2d3c4-b5a6-4978-8a9b-0c1d2e3f4a5b';
const id = (n: number): string => `${String(n).padStart(8, '0')}-3d1f-4a6b-9c8d-7e6f5a4b3c2d`;
let dir: string;
let ts: TestStore;
let store: Store;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'crs-hostile-'));
  ts = await openTestStore(dir);
  store = ts.store;
});
afterAll(async () => {
  await store?.close();
  await ts?.cleanup();
});

interface Reject {
  line: number;
  issues: { path: string; message: string }[];
}

async function run(name: string, content: Buffer | string): Promise<{ summary: Awaited<ReturnType<typeof importFiles>>; rejects: Reject[] }> {
  const path = join(dir, name);
  writeFileSync(path, content);
  const summary = await importFiles(store, [path]);
  let rejects: Reject[] = [];
  try {
    rejects = readFileSync(join(dir, `${name.replace(/\.gz$/, '')}.rejects.ndjson`), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Reject);
  } catch {
    rejects = [];
  }
  return { summary, rejects };
}

describe('hostile import input', () => {
  it('rejects a 50 MB line by its size and imports the lines around it', async () => {
    const huge = `{"kind":"customer","record":{"id":"${id(1)}","cmsProjectId":"${P}","reason":"${'x'.repeat(50 * 1024 * 1024)}"}}`;
    const { summary, rejects } = await run('huge.ndjson', [companyLine(P, id(2), F), huge, companyLine(P, id(3), F)].join('\n'));
    expect(summary).toMatchObject({ read: 3, stored: 2, rejected: 1 });
    expect(rejects[0]).toMatchObject({ line: 2, issues: [{ message: expect.stringMatching(/over the \d+-byte limit/) }] });
    expect(await store.getCompany(P, id(1))).toBeUndefined();
  });

  it('stores deeply nested JSON inside an open object exactly, or rejects it cleanly', async () => {
    const line = companyLine(P, id(4), F).replace('"riskScore":"High"', `"riskScore":"High","deep":${'['.repeat(5000)}${']'.repeat(5000)}`);
    const { summary } = await run('deep.ndjson', line);
    expect(summary.rejected + summary.stored).toBe(1);
    // The record is the envelope's last member: its text runs from after "record": to the final brace.
    if (summary.stored === 1) expect((await store.getCompany(P, id(4)))!.body!.toString()).toBe(line.slice(line.indexOf('"record":') + 9, -1));
  });

  it('rejects invalid UTF-8 and reads BOM and CRLF input', async () => {
    const bad = Buffer.from(companyLine(P, id(5), F).replace('"Active"', '"Act\u00e9ive"'));
    bad[bad.indexOf(0xc3)] = 0xff;
    const content = Buffer.concat([Buffer.from('\ufeff' + companyLine(P, id(6), F) + '\r\n'), bad, Buffer.from('\r\n' + companyLine(P, id(7), F) + '\r\n')]);
    const { summary, rejects } = await run('utf8.ndjson', content);
    expect(summary).toMatchObject({ read: 3, stored: 2, rejected: 1 });
    expect(rejects[0]).toMatchObject({ line: 2, issues: [{ message: 'line is not valid UTF-8' }] });
    expect(await store.getCompany(P, id(6))).toBeDefined();
  });

  it('rejects a repeated member name, wherever it is, naming its path', async () => {
    const dup = alertLine(P, id(8), id(2), F).replace('"severity":"High"', '"severity":"Bogus","severity":"High"');
    const { summary, rejects } = await run('dup.ndjson', dup);
    expect(summary).toMatchObject({ rejected: 1, stored: 0 });
    expect(rejects[0]!.issues[0]).toMatchObject({ path: '/record/severity', message: expect.stringMatching(/appears twice/) });
  });

  it('stores __proto__ and constructor members as plain data and pollutes nothing', async () => {
    const line = companyLine(P, id(9), F).replace('"riskScore":"High"', '"riskScore":"High","__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}');
    const { summary } = await run('proto.ndjson', line);
    expect(summary).toMatchObject({ stored: 1, rejected: 0 });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
    expect((await store.getCompany(P, recordKey(id(9))))!.body!.toString()).toContain('"__proto__":{"polluted":true}');
  });

  it('keeps numbers beyond 2^53 digit for digit', async () => {
    const line = companyLine(P, id(10), F).replace('"riskScore":"High"', '"riskScore":"High","big":123456789012345678901234567890,"neg":-9007199254740993,"tiny":1e-400');
    await run('big.ndjson', line);
    const body = (await store.getCompany(P, id(10)))!.body!.toString();
    expect(body).toContain('"big":123456789012345678901234567890');
    expect(body).toContain('"neg":-9007199254740993');
    expect(body).toContain('"tiny":1e-400');
  });

  it('imports every whole line of a truncated gzip and reports where it broke', async () => {
    const lines = Array.from({ length: 200 }, (_, i) => companyLine(P, id(1000 + i), F));
    const gz = gzipSync(Buffer.from(lines.join('\n') + '\n'));
    const { summary, rejects } = await run('cut.ndjson.gz', gz.subarray(0, Math.floor(gz.length * 0.6)));
    expect(summary.stored).toBeGreaterThan(0);
    expect(summary.stored).toBeLessThan(200);
    expect(summary.rejected).toBe(1);
    expect(rejects.at(-1)!.issues[0]!.message).toMatch(/damaged/);
    expect(await store.getCompany(P, id(1000))).toBeDefined();
  });
});
