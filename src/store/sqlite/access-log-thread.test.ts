import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AccessLogIndexFailure } from '../../access-log/access-log.js';
import { AccessLogThread } from './access-log-thread.js';
import { openSqliteStore, type SqliteStore } from './sqlite-store.js';

let dir: string | undefined;
let store: SqliteStore | undefined;
let indexer: AccessLogThread | undefined;
afterEach(async () => {
  await indexer?.close();
  await store?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('AccessLogThread', () => {
  it('reports from its thread a batch it cannot catch up, and catches up the others', async () => {
    dir = mkdtempSync(join(tmpdir(), 'crs-ali-'));
    const file = join(dir, 'store.db');
    store = await openSqliteStore(file);
    const at = { project: 'p', firstAt: '2026-03-01T10:00:00.000Z', lastAt: '2026-03-01T10:00:00.000Z', entries: '[]' };
    await store.appendAccessLog([{ ...at, records: '["r1"]' }, { ...at, records: '["r2"' }, { ...at, records: '["r3"]' }]);
    const failures: AccessLogIndexFailure[] = [];
    indexer = new AccessLogThread(file, (f) => failures.push(f), 20);
    // The damaged batch reported a second time means a later round began, so the first one, which
    // caught up the batches after it one by one, has finished.
    const batchReports = (): number => failures.filter((f) => f.batch !== undefined).length;
    for (let i = 0; i < 200 && batchReports() < 2; i++) await new Promise((r) => setTimeout(r, 25));
    expect(failures[0]).toEqual({ err: expect.objectContaining({ name: 'StoreError', message: expect.stringMatching(/malformed JSON/) }) });
    expect(failures).toContainEqual({ err: expect.objectContaining({ name: 'StoreError' }), batch: { project: 'p', id: 2 } });
    // The other two are caught up: a catch-up now covers nothing but still meets the damaged one.
    expect(await store.indexAccessLog()).toBe(0);
  });
});
