/**
 * Pages of the alert and company lists and of customers' executions (and the alert counts) kept in
 * memory, each with the change epoch its project had before the page was read. A page is served
 * again only while the project's epoch is the same, so nothing of the project changed since and a
 * cached page is exactly what a fresh read would return. The rows are stored bytes: a value signed
 * per request (a document URL) is still signed per request.
 */
import { LRUCache } from 'lru-cache';
import { frozenJson } from './frozen-json.js';
import type { Store, StoredAlertSummary, StoredCompany, StoredExecution } from './store.js';

/** What the cache counts, for /metrics. */
export interface ListPageCacheObserver {
  (list: ListName, outcome: 'hit' | 'miss' | 'stale'): void;
}

/** The lists whose pages are kept. */
export type ListName = 'alerts' | 'companies' | 'executions' | 'alert-counts';

type PageRow = StoredAlertSummary | StoredCompany | StoredExecution;

interface Entry {
  epoch: number;
  value: unknown;
  size: number;
}

// Per row beyond its bytes: the objects, strings and the entry's key.
const ROW_OVERHEAD = 200;

/** A page's bytes counted twice: the answer rendered from them is kept beside the rows (src/http/list-page.ts). */
function sizeOfRows(rows: readonly PageRow[]): number {
  let n = ROW_OVERHEAD;
  for (const r of rows) n += ROW_OVERHEAD + 2 * ((r.body?.length ?? 0) + (r.deflated?.length ?? 0)) + (r.layout?.length ?? 0) + r.etag.length;
  return n;
}

function sizeOfCounts(counts: ReadonlyMap<string, number>): number {
  return ROW_OVERHEAD * (1 + counts.size);
}

/**
 * The entry's key: the JSON of [list, project, ...args]. An object among the args (a filter, the
 * fields read) is serialized once when frozen: a page asked again brings the same frozen filter
 * (the list routes keep it with the URL's parameters) and the same fields.
 */
function keyOf(list: ListName, project: string, args: readonly unknown[]): string {
  let key = `[${JSON.stringify(list)},${JSON.stringify(project)}`;
  for (const arg of args) key += `,${frozenJson(arg)}`;
  return `${key}]`;
}

/**
 * Wraps `store` so its listAlerts, listCompanies, listExecutions and countAlerts answer from memory
 * while the project is unchanged; every other member passes through. `maxBytes` 0 returns the store
 * as it is.
 */
export function withListPageCache(store: Store, maxBytes: number, observe?: ListPageCacheObserver): Store {
  if (maxBytes <= 0) return store;
  const cache = new LRUCache<string, Entry>({ maxSize: maxBytes, sizeCalculation: (e) => e.size });

  async function cached<V>(list: ListName, project: string, args: readonly unknown[], read: () => Promise<V>, sizeOf: (value: V) => number): Promise<V> {
    const key = keyOf(list, project, args);
    const hit = cache.get(key);
    const epoch = await store.changeEpoch(project);
    if (hit !== undefined && hit.epoch === epoch) {
      observe?.(list, 'hit');
      // The same value while the page is current: what callers derive from it can be kept with it (src/http/list-page.ts).
      return hit.value as V;
    }
    observe?.(list, hit === undefined ? 'miss' : 'stale');
    // The epoch was found before this read: a change landing in between makes the entry stale at once, never wrong.
    const value = await read();
    cache.set(key, { epoch, value, size: sizeOf(value) });
    return value;
  }

  const listAlerts: Store['listAlerts'] = (project, filter, after, limit, fields) =>
    cached('alerts', project, [filter, after ?? null, limit, fields ?? null], () => store.listAlerts(project, filter, after, limit, fields), sizeOfRows);
  const listCompanies: Store['listCompanies'] = (project, filter, after, limit, fields) =>
    cached('companies', project, [filter, after ?? null, limit, fields ?? null], () => store.listCompanies(project, filter, after, limit, fields), sizeOfRows);
  const listExecutions: Store['listExecutions'] = (project, customerKey, filter, after, limit, fields) =>
    cached('executions', project, [customerKey, filter, after ?? null, limit, fields ?? null], () =>
      store.listExecutions(project, customerKey, filter, after, limit, fields), sizeOfRows,
    );
  // Counting is a scan of the project's index range: kept like a page (the map is only read by callers).
  const countAlerts: Store['countAlerts'] = (project, filter) => cached('alert-counts', project, [filter], () => store.countAlerts(project, filter), sizeOfCounts);
  const own = new Map<PropertyKey, unknown>([
    ['listAlerts', listAlerts],
    ['listCompanies', listCompanies],
    ['listExecutions', listExecutions],
    ['countAlerts', countAlerts],
  ]);
  const bound = new Map<PropertyKey, unknown>();
  return new Proxy(store, {
    get(target, prop) {
      if (own.has(prop)) return own.get(prop);
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      let fn = bound.get(prop);
      if (fn === undefined) bound.set(prop, (fn = (value as (...a: unknown[]) => unknown).bind(target)));
      return fn;
    },
  });
}
