/**
 * The cost of an LRU cache against the map cleared when full that it replaced, on the paths
 * the service takes: a hit (a known key, a signed URL) and a miss that has to make room.
 * Run: node --import tsx bench/cache-cost.ts
 */
import { LRUCache } from 'lru-cache';
import { nsPerCall, report } from './per-call.js';

const MAX = 50_000;
const hot = Array.from({ length: 1_000 }, (_, i) => `crs_key_${i}`);
const many = Array.from({ length: 400_000 }, (_, i) => `crs_key_${i}`);

function clearWhenFull(): { get(k: string): number | undefined; set(k: string, v: number): void } {
  const m = new Map<string, number>();
  return {
    get: (k) => m.get(k),
    set: (k, v) => {
      if (m.size >= MAX) m.clear();
      m.set(k, v);
    },
  };
}

const map = clearWhenFull();
const lru = new LRUCache<string, number>({ max: MAX });
for (const k of hot) {
  map.set(k, 1);
  lru.set(k, 1);
}

report('cache: hit (1 000 keys held)', [
  ['map cleared when full: get', nsPerCall((i) => map.get(hot[i % hot.length]!))],
  ['lru-cache: get', nsPerCall((i) => lru.get(hot[i % hot.length]!))],
]);

const map2 = clearWhenFull();
const lru2 = new LRUCache<string, number>({ max: MAX });
report(`cache: miss then set, ${many.length} distinct keys through ${MAX} places`, [
  ['map cleared when full: get + set', nsPerCall((i) => { const k = many[i % many.length]!; if (map2.get(k) === undefined) map2.set(k, i); })],
  ['lru-cache: get + set (evicts the oldest)', nsPerCall((i) => { const k = many[i % many.length]!; if (lru2.get(k) === undefined) lru2.set(k, i); })],
]);
