/**
 * Micro-benchmark of the wire module's two caches on the read path: layouts decoded by their text
 * (src/wire/record-layout.ts) and CRC shift operators by piece length (src/wire/gzip-pieces.ts).
 * The last lines compare the two kinds of cache alone, in one process: a Map cleared when full
 * (what the module held before) and lru-cache (what it holds). Not a test.
 * Run: npx tsx bench/wire-caches.ts [rounds]
 */
import { LRUCache } from 'lru-cache';
import { crc32Combine } from '../src/wire/gzip-pieces.js';
import { documentPlaces } from '../src/wire/json-splices.js';
import type { RecordBytes } from '../src/wire/record-bytes.js';
import { layoutRecord, parseLayout } from '../src/wire/record-layout.js';
import { render } from '../src/wire/render.js';

const rounds = Number(process.argv[2] ?? 7);
const documents = documentPlaces([['documents', '[]']]);

/** A record with one document URL to splice and about `size` bytes of JSON. */
function record(i: number, size: number): RecordBytes {
  const doc = { id: `r-${i}`, documents: [{ objectKey: `k-${i}`, filename: 'f.pdf', presignedUrl: 'stale' }], text: 'x'.repeat(size) };
  const body = Buffer.from(JSON.stringify(doc));
  return { etag: String(i), body, ...layoutRecord(body, { documents, gzipLevel: 6 }) };
}

/** Nanoseconds per call of `fn` over `n` calls: the median and the best of `rounds` rounds. */
function measure(name: string, n: number, fn: (i: number) => void): void {
  const per: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < n; i++) fn(i);
    per.push(Number(process.hrtime.bigint() - start) / n);
  }
  per.sort((a, b) => a - b);
  console.log(`${name.padEnd(52)} median ${per[Math.floor(per.length / 2)]!.toFixed(1).padStart(8)} ns/op   best ${per[0]!.toFixed(1).padStart(8)} ns/op`);
}

const hot = Array.from({ length: 2_000 }, (_, i) => record(i, 1500));
const wide = Array.from({ length: 30_000 }, (_, i) => record(i, 200));
const hotLayouts = hot.map((r) => r.layout);
const wideLayouts = wide.map((r) => r.layout);
const sign = (): string => 'https://files.example/signed?token=abcdef0123456789';

// Warm up both caches and the JIT.
for (let i = 0; i < 50_000; i++) parseLayout(hotLayouts[i % hot.length]!);

measure('layout: hot set (2,000 layouts, all cached)', 400_000, (i) => parseLayout(hotLayouts[i % hotLayouts.length]!));
measure('layout: wide set (30,000 layouts cycling)', 120_000, (i) => parseLayout(wideLayouts[i % wideLayouts.length]!));
measure('layout: wide set (random, 30,000)', 120_000, () => parseLayout(wideLayouts[Math.floor(Math.random() * wideLayouts.length)]!));
measure('crc combine: repeated piece lengths', 1_000_000, (i) => crc32Combine(i, i * 7, 1200 + (i % 64)));
measure('crc combine: lengths beyond the cache (100,000)', 300_000, (i) => crc32Combine(i, i * 7, 1 + ((i * 7919) % 100_000)));
measure('render: one hot record, gzip', 100_000, (i) => void render(hot[i % hot.length]!, 'gzip', sign));
measure('render: one hot record, identity', 100_000, (i) => void render(hot[i % hot.length]!, 'identity', sign));
measure('render: page of 50 wide records, gzip', 2_000, (i) => void render(wide.slice((i * 50) % 29_950, ((i * 50) % 29_950) + 50), 'gzip', sign));

// The caches alone, same keys and hit pattern, in this process: what a lookup costs each way.
const layoutKeys = hotLayouts.map((l) => l!);
const lengths = Array.from({ length: 64 }, (_, i) => 1200 + i);
const map = new Map<string, object>(layoutKeys.map((k) => [k, {}]));
const lru = new LRUCache<string, object>({ max: 10_000 });
for (const k of layoutKeys) lru.set(k, {});
const numMap = new Map<number, number>(lengths.map((n) => [n, n]));
const numLru = new LRUCache<number, number>({ max: 65_536 });
for (const n of lengths) numLru.set(n, n);
let sink = 0;
measure('cache alone: layout hit, Map', 2_000_000, (i) => void (sink += map.get(layoutKeys[i % layoutKeys.length]!) === undefined ? 0 : 1));
measure('cache alone: layout hit, LRUCache', 2_000_000, (i) => void (sink += lru.get(layoutKeys[i % layoutKeys.length]!) === undefined ? 0 : 1));
measure('cache alone: shift hit, Map', 5_000_000, (i) => void (sink += numMap.get(lengths[i & 63]!) ?? 0));
measure('cache alone: shift hit, LRUCache', 5_000_000, (i) => void (sink += numLru.get(lengths[i & 63]!) ?? 0));
if (sink === 0) console.log('(no hits)');
