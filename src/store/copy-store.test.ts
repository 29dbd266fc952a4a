import { describe, expect, it } from 'vitest';
import type { StoredEntry } from '../access-log/chunk.js';
import { storableRow } from './copy-store.js';
import type { StoreRow } from './store.js';

describe('storableRow', () => {
  it("rewrites an access log batch's unstorable text and keeps each entry's count and returned records", () => {
    const entries: StoredEntry[] = [
      ['2026-01-01T00:00:00.000Z', 'k1', '/v1/alerts', null, 200, 'r1', 'a\u0000b', ['x\u0000y', 'z']],
      ['2026-01-01T00:00:01.000Z', 'k1', '/v1/alerts/:id', null, 429, 'r2', '1.2.3.4', 7],
    ];
    const row: StoreRow = {
      kind: 'accessLogBatch',
      batch: { project: 'p', firstAt: entries[0]![0], lastAt: entries[1]![0], entries: JSON.stringify(entries), records: JSON.stringify(['x\u0000y', 'z']) },
    };
    const out = storableRow(row);
    if (out.kind !== 'accessLogBatch') throw new Error('not a batch');
    const rewritten = JSON.parse(out.batch.entries) as StoredEntry[];
    expect(rewritten[0]).toEqual(['2026-01-01T00:00:00.000Z', 'k1', '/v1/alerts', null, 200, 'r1', 'a\uFFFDb', ['x\uFFFDy', 'z']]);
    expect(rewritten[1]).toEqual(['2026-01-01T00:00:01.000Z', 'k1', '/v1/alerts/:id', null, 429, 'r2', '1.2.3.4', 7]);
    expect(JSON.parse(out.batch.records)).toEqual(['x\uFFFDy', 'z']);
  });
});
