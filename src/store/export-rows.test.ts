/** The keyset export loop, against an in-memory reader: every row once, in key order, chunks bounded. */
import { describe, expect, it } from 'vitest';
import { exportChunks, type PageReader } from './export-rows.js';
import type { StoreRow } from './store.js';

type Row = Record<string, unknown>;

/** Answers keyset pages from in-memory tables, as the SQL would: after the key, in key order, up to the limit. */
function memoryReader(tables: Record<string, { key: string[]; rows: Row[] }>, limits: number[]): PageReader {
  return async (sql, params) => {
    const table = tables[/from "?(\w+)"?/i.exec(sql)![1]!] ?? { key: [], rows: [] };
    const limit = params[params.length - 1] as number;
    limits.push(limit);
    const after = params.slice(0, -1) as string[];
    const cmp = (r: Row): number => {
      for (const [i, k] of table.key.entries()) {
        const a = r[k] as string;
        if (a !== after[i]) return a < after[i]! ? -1 : 1;
      }
      return 0;
    };
    return table.rows.filter((r) => after.length === 0 || cmp(r) > 0).slice(0, limit);
  };
}

const alertRow = (i: number, size: number): Row => ({
  project: 'p',
  alert_key: `a${String(i).padStart(4, '0')}`,
  version_key: null,
  etag: `e${i}`,
  body: Buffer.alloc(size, 1),
  wire: null,
  gz: null,
});

async function collect(chunks: AsyncIterable<StoreRow[]>): Promise<StoreRow[][]> {
  const out: StoreRow[][] = [];
  for await (const c of chunks) out.push(c);
  return out;
}

describe('exportChunks', () => {
  it('yields every row once, in key order, in chunks no larger than asked', async () => {
    const rows = Array.from({ length: 25 }, (_, i) => alertRow(i, 10));
    const limits: number[] = [];
    const chunks = await collect(exportChunks(memoryReader({ alerts: { key: ['project', 'alert_key'], rows } }, limits), 'sqlite', 7));
    expect(chunks.map((c) => c.length)).toEqual([7, 7, 7, 4]);
    expect(chunks.flat().map((r) => (r.kind === 'alert' ? r.key : r.kind))).toEqual(rows.map((r) => r.alert_key));
  });

  it('shrinks the chunks of a table with large rows to about the byte budget', async () => {
    const rows = Array.from({ length: 200 }, (_, i) => alertRow(i, 10_000));
    const limits: number[] = [];
    const reader = memoryReader({ alerts: { key: ['project', 'alert_key'], rows } }, limits);
    const chunks = await collect(exportChunks(reader, 'sqlite', 1000, 50_000));
    // The first chunk is small while the row size is unknown, then about 50 kB each.
    expect(chunks[0]).toHaveLength(64);
    for (const c of chunks.slice(1)) expect(c.length).toBeLessThanOrEqual(5);
    expect(chunks.flat()).toHaveLength(200);
    // Other tables start small again, and never ask for more than chunkRows.
    expect(Math.max(...limits)).toBeLessThanOrEqual(1000);
  });

  it('refuses a chunk size that is not a positive whole number', async () => {
    await expect(collect(exportChunks(memoryReader({}, []), 'sqlite', 0))).rejects.toThrow(RangeError);
  });
});
