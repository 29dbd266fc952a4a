/**
 * The import's workers: results in the lines' order, chunks shared with the importing thread, and
 * lines too large for a worker's capped heap prepared on the importing thread; the service's
 * threads on demand, which prepare every line.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ImportPool, WORKER_LINE_BYTES } from '../../src/ingest/import-pool.js';
import { importFiles } from '../../src/ingest/importer.js';
import { ImportStopped } from '../../src/ingest/import-summary.js';
import { processLine } from '../../src/ingest/process-line.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { recordKey } from '../../src/contract/record-key.js';
import { alertLine, companyLine, executionLine } from '../support/records.js';

const P = 'proj-a';
const C = '0b5c2a4e-3d1f-4a6b-9c8d-7e6f5a4b3c2d';
const F = 'f1e2d3c4-b5a6-4978-8a9b-0c1d2e3f4a5b';
const BIG = 'bb5c2a4e-3d1f-4a6b-9c8d-7e6f5a4b3c2d';

/** An alert whose audit trail takes about `bytes`: many small objects, the heaviest kind of line to parse. */
function bigAlertLine(id: string, bytes: number): string {
  const envelope = JSON.parse(alertLine(P, id, C, F)) as { record: { audits: unknown[] } };
  const audit = (i: number) => ({ timestamp: '2024-03-01T00:00:00Z', action: 'update', author: `analyst ${i}`, record: { status: 'Open', note: `note ${i}`, n: [i, `${i}`] } });
  const count = Math.ceil(bytes / JSON.stringify(audit(1e6)).length);
  envelope.record.audits = Array.from({ length: count }, (_, i) => audit(i));
  return JSON.stringify(envelope);
}

const dir = mkdtempSync(join(tmpdir(), 'crs-import-pool-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('ImportPool', () => {
  it('answers each line of a chunk in its place, whether a worker or this thread prepared it', async () => {
    const texts = [companyLine(P, C, F), bigAlertLine(BIG, WORKER_LINE_BYTES + 1024), '{"kind":"alert"}', executionLine(P, C, 1)];
    const pool = new ImportPool(1);
    try {
      const results = await pool.prepare(texts.map((t) => Buffer.from(t)), 6);
      const inline = texts.map((t) => processLine(Buffer.from(t), 6));
      expect(results.map((r) => r.kind)).toEqual(['record', 'record', 'reject', 'record']);
      results.forEach((r, i) => {
        const want = inline[i]!;
        if (r.kind === 'record' && want.kind === 'record') {
          expect(r.upsert.key).toBe(want.upsert.key);
          expect(r.upsert.body.equals(want.upsert.body)).toBe(true);
        }
      });
    } finally {
      await pool.close();
    }
  });

  it('prepares a chunk waiting for the worker on this thread, but never the last one waiting', async () => {
    const chunk = (i: number) => [Buffer.from(executionLine(P, C, i)), Buffer.from('{"kind":"alert"}')];
    const pool = new ImportPool(1);
    try {
      // The worker holds two chunks; the next two wait.
      const pending = [1, 2, 3, 4].map((i) => pool.prepare(chunk(i), 6));
      expect(pool.helpOne()).toBe(true);
      expect(pool.helpOne()).toBe(false);
      const results = await Promise.all(pending);
      results.forEach((r, i) => {
        expect(r.map((x) => x.kind)).toEqual(['record', 'reject']);
        const want = processLine(chunk(i + 1)[0]!, 6);
        expect(r[0]!.kind === 'record' && want.kind === 'record' && r[0]!.upsert.body.equals(want.upsert.body)).toBe(true);
      });
    } finally {
      await pool.close();
    }
  });

  it("with threads on demand (the service's pushes), prepares every line in a worker, one past what an import's worker holds too, and none on this thread", async () => {
    const texts = [companyLine(P, C, F), bigAlertLine(BIG, 15 * 1024 * 1024), '{"kind":"alert"}', executionLine(P, C, 1)];
    const pool = new ImportPool(1, { idleMs: 1_000 });
    try {
      const chunk = (i: number) => [Buffer.from(executionLine(P, C, i))];
      const waiting = [1, 2, 3, 4].map((i) => pool.prepare(chunk(i), 6));
      // Four chunks for a worker that holds two: the calling thread still takes none.
      expect(pool.helpOne()).toBe(false);
      await Promise.all(waiting);
      expect(pool.completed).toBe(4);
      // A chunk of the large line alone goes to the worker too.
      const [large] = await pool.prepare([Buffer.from(texts[1]!)], 6);
      expect(pool.completed).toBe(5);
      expect(large!.kind).toBe('record');
      const results = await pool.prepare(texts.map((t) => Buffer.from(t)), 6);
      expect(pool.completed).toBe(6);
      const inline = texts.map((t) => processLine(Buffer.from(t), 6));
      expect(results.map((r) => r.kind)).toEqual(['record', 'record', 'reject', 'record']);
      results.forEach((r, i) => {
        const want = inline[i]!;
        expect(r.kind === 'record' && want.kind === 'record' ? r.upsert.body.equals(want.upsert.body) : r.kind === want.kind).toBe(true);
      });
    } finally {
      await pool.close();
    }
  }, 60_000);

  it('stores, rejects and stops at the same lines whichever thread prepared them', async () => {
    // Enough chunks that some wait for the worker and the importing thread takes them.
    const lines = Array.from({ length: 3000 }, (_, i) => (i % 97 === 5 ? `{"kind":"alert","record":{"n":${i}}}` : executionLine(P, C, i)));
    const input = join(dir, 'many.ndjson');
    writeFileSync(input, `${lines.join('\n')}\n`);
    const run = async (workers: number, maxRejects?: number) => {
      const name = `${workers}-${maxRejects ?? 'all'}`;
      const store = await openSqliteStore(join(dir, `${name}.db`));
      const rejects = join(dir, `${name}.rejects.ndjson`);
      try {
        const outcome = await importFiles(store, [input], { workers, maxRejects, rejectsPath: () => rejects }).catch((err: unknown) => {
          if (err instanceof ImportStopped) return { stoppedAt: err.lineNo, ...err.summary };
          throw err;
        });
        const page = await store.listExecutions(P, recordKey(C), { order: 'desc' }, undefined, 200);
        return { outcome, rejects: readFileSync(rejects, 'utf8'), firstPage: page.map((e) => e.etag) };
      } finally {
        await store.close();
      }
    };
    const inline = await run(0);
    expect(inline.outcome).toMatchObject({ read: 3000, rejected: 31 });
    expect(await run(1)).toEqual(inline);
    const stopped = await run(0, 10);
    expect(stopped.outcome).toMatchObject({ stoppedAt: 976 });
    expect(await run(1, 10)).toEqual(stopped);
  }, 60_000);

  it('imports a line far past what a worker may hold, beside ordinary lines', async () => {
    const input = join(dir, 'big.ndjson');
    const big = bigAlertLine(BIG, 15 * 1024 * 1024);
    writeFileSync(input, `${companyLine(P, C, F)}\n${big}\n${executionLine(P, C, 2)}\n`);
    const store = await openSqliteStore(join(dir, 'big.db'));
    try {
      const summary = await importFiles(store, [input], { workers: 1 });
      expect(summary).toMatchObject({ read: 3, stored: 3, rejected: 0 });
      const stored = await store.getAlert(P, recordKey(BIG));
      expect(stored?.body?.toString()).toBe(JSON.stringify((JSON.parse(big) as { record: unknown }).record));
    } finally {
      await store.close();
    }
  }, 60_000);
});
