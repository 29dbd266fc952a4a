/** Small inputs that would make an import do or write far more than they are worth, and records with no usable project. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SETTINGS } from '../../src/config/settings.js';
import { MAX_NESTING } from '../../src/ingest/envelope.js';
import { importFiles, type ImportOptions } from '../../src/ingest/importer.js';
import { ImportStopped } from '../../src/ingest/import-summary.js';
import { readLines } from '../../src/ingest/lines.js';
import type { Store } from '../../src/store/store.js';
import { alertLine, companyLine, executionLine } from '../support/records.js';
import { openTestStore, type TestStore } from '../support/store-harness.js';

const F = 'f1e2d3c4-b5a6-4978-8a9b-0c1d2e3f4a5b';
const id = (n: number): string => `${String(n).padStart(8, '0')}-3d1f-4a6b-9c8d-7e6f5a4b3c2d`;
let dir: string;
let ts: TestStore;
let store: Store;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'crs-amplify-'));
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

function rejectsOf(name: string): Reject[] {
  try {
    return readFileSync(join(dir, `${name.replace(/\.gz$/, '')}.rejects.ndjson`), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Reject);
  } catch {
    return [];
  }
}

async function run(name: string, content: Buffer | string, options: ImportOptions = {}) {
  writeFileSync(join(dir, name), content);
  const summary = await importFiles(store, [join(dir, name)], options);
  return { summary, rejects: rejectsOf(name) };
}

// Both paths: shaping on the importing thread and in a worker.
describe.each([0, 1])('hostile import volume (workers: %i)', (workers) => {
  const P = `proj-amp-${workers}`;

  it('stops after --max-rejects rejected lines, storing every valid line before the stopping line and none after', async () => {
    const good = (n: number) => companyLine(P, id(n), F);
    const content = [good(1), good(2), ...Array.from({ length: 30 }, () => '{}'), good(3)].join('\n') + '\n';
    const name = `flood-${workers}.ndjson`;
    writeFileSync(join(dir, name), content);
    const err = await importFiles(store, [join(dir, name)], { maxRejects: 10, workers, batchRecords: 1000 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ImportStopped);
    const stop = err as ImportStopped;
    expect(stop.lineNo).toBe(13);
    expect(stop.message).toMatch(/stopped at line 13 .*more than 10 lines were rejected/);
    expect(stop.summary).toMatchObject({ read: 13, stored: 2, rejected: 11 });
    expect(await store.getCompany(P, id(1))).toBeDefined();
    expect(await store.getCompany(P, id(2))).toBeDefined();
    expect(await store.getCompany(P, id(3))).toBeUndefined();
    const rejects = rejectsOf(name);
    expect(rejects).toHaveLength(11);
    expect(rejects.at(-1)!.issues[0]!.message).toMatch(/stopped/);
  });

  it('has a bounded default for --max-rejects', () => {
    expect(SETTINGS.maxRejects.default).toBeGreaterThan(0);
    expect(SETTINGS.maxRejects.default).toBeLessThanOrEqual(100_000);
  });

  it(`rejects nesting deeper than ${MAX_NESTING} levels, naming where, and stores nesting within it`, async () => {
    const nest = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
    // The envelope is level 1 and the record level 2, so a member of the record adds its own depth to 2.
    const ok = companyLine(P, id(10), F).replace('"riskScore":"High"', `"riskScore":"High","deep":${nest(MAX_NESTING - 2)}`);
    const deep = companyLine(P, id(11), F).replace('"riskScore":"High"', `"riskScore":"High","deep":${nest(100_000)}`);
    const { summary, rejects } = await run(`deep-${workers}.ndjson`, `${ok}\n${deep}\n`, { workers });
    expect(summary).toMatchObject({ stored: 1, rejected: 1 });
    expect(rejects[0]).toMatchObject({ line: 2, issues: [{ path: `/record/deep${'/0'.repeat(MAX_NESTING - 2)}`, message: expect.stringMatching(/nested deeper than 64 levels/) }] });
    expect(await store.getCompany(P, id(10))).toBeDefined();
    expect(await store.getCompany(P, id(11))).toBeUndefined();
  });

  it('rejects an empty, padded or control-character project id on every kind of record', async () => {
    const bad = ['', ' ', ' proj', 'proj\nforged', 'proj\u0000', 'proj\u202e'];
    const lines = bad.flatMap((p, i) => [companyLine(p, id(20 + i), F), alertLine(p, id(40 + i), id(20 + i), F), executionLine(p, id(20 + i), i)]);
    const { summary, rejects } = await run(`projects-${workers}.ndjson`, lines.join('\n') + '\n', { workers });
    expect(summary).toMatchObject({ read: lines.length, stored: 0, rejected: lines.length });
    for (const r of rejects) expect(r.issues[0]!.path).toMatch(/^(\/record)?\/cmsProjectId$/);
  });
});

describe('blank lines', () => {
  it('are counted by number but never handed on one by one', async () => {
    const blank = Buffer.alloc(4 * 1024 * 1024, '\n');
    const crlf = Buffer.alloc(4 * 1024 * 1024, '\r\n');
    async function* input() {
      yield blank;
      yield crlf;
      yield Buffer.from(' \t \n{"a":1}\n  \n');
    }
    const got = [];
    for await (const line of readLines(input(), 1024)) got.push(line);
    expect(got).toEqual([{ lineNo: blank.length + crlf.length / 2 + 2, bytes: Buffer.from('{"a":1}') }]);
  });

  it('in a gzip flood cost nothing but their count, and the lines after them keep their numbers', async () => {
    const P = 'proj-blank';
    const padded = Math.floor((8 * 1024 * 1024) / 3);
    const flood = Buffer.concat([Buffer.alloc(8 * 1024 * 1024, '\n'), Buffer.alloc(padded * 3, ' \r\n')]);
    const blankLines = 8 * 1024 * 1024 + padded;
    const content = gzipSync(Buffer.concat([flood, Buffer.from(`${companyLine(P, id(1), F)}\n{}\n`)]));
    const { summary, rejects } = await run('blank.ndjson.gz', content);
    expect(summary).toMatchObject({ read: 2, stored: 1, rejected: 1 });
    expect(rejects[0]!.line).toBe(blankLines + 2);
  });
});
