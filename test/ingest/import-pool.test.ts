/** The import's workers: results in the lines' order, and lines too large for a worker's capped heap prepared on the importing thread. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ImportPool, WORKER_LINE_BYTES } from '../../src/ingest/import-pool.js';
import { importFiles } from '../../src/ingest/importer.js';
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
