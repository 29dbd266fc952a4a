/** Fetches each distinct request once from a service: the bytes the ceiling will serve, and ETags. */
import { ceilingKey, type CapturedResponse } from './ceiling-data.js';
import { get, nextLink } from './http-get.js';
import { firstPagePath, type RequestSpec } from './scenarios.js';

// Node sets these itself on every response (and the ceiling's Date must be its own).
const HOP_BY_HOP = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

/** Runs fn over items, a few at a time: the agent keeps up to four sockets open. */
async function eachLimited<T>(items: T[], fn: (item: T) => Promise<void>, limit = 4): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** Captures responses for these requests (deduplicated), checking each has the expected status. */
export async function captureResponses(base: string, requests: RequestSpec[], expect: number): Promise<CapturedResponse[]> {
  const seen = new Map<string, CapturedResponse>();
  const distinct = new Map(requests.map((r) => [ceilingKey(r.headers.authorization, r.path, r.headers['accept-encoding'], r.headers['if-none-match']), r]));
  await eachLimited([...distinct], async ([key, r]) => {
    const res = await get(base, r.path, r.headers);
    if (res.status !== expect) throw new Error(`GET ${r.path} answered ${res.status}, expected ${expect}: ${res.body.toString().slice(0, 300)}`);
    const rawHeaders: string[] = [];
    for (let i = 0; i < res.rawHeaders.length; i += 2) {
      if (!HOP_BY_HOP.has(res.rawHeaders[i]!.toLowerCase())) rawHeaders.push(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
    }
    seen.set(key, { key, status: res.status, rawHeaders, body: res.body });
  });
  return [...seen.values()];
}

/** ETag per path, from captured identity responses. */
export async function currentEtags(base: string, requests: RequestSpec[]): Promise<Map<string, string>> {
  const etags = new Map<string, string>();
  await eachLimited(requests, async (r) => {
    const res = await get(base, r.path, { authorization: r.headers.authorization! });
    const etag = res.headers.etag;
    if (res.status !== 200 || etag === undefined) throw new Error(`GET ${r.path} answered ${res.status} without an ETag`);
    etags.set(r.path, etag);
  });
  return etags;
}

export interface DeepWalk {
  /** Pages fetched by following rel="next" from the first page. */
  pages: number;
  /** Paths (with real cursors) of the last full pages reached. */
  deepPaths: string[];
  seconds: number;
}

/** Follows Link rel="next" from the heavy customer's first page up to maxPages pages in. */
export async function walkToDeepPages(base: string, key: string, customerId: string, maxPages: number, keep = 20): Promise<DeepWalk> {
  const started = performance.now();
  const headers = { authorization: `Bearer ${key}` };
  let path = firstPagePath(customerId);
  const ring: string[] = [];
  let pages = 0;
  while (pages < maxPages) {
    const res = await get(base, path, headers);
    if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${res.body.toString().slice(0, 300)}`);
    pages += 1;
    const next = nextLink(res.headers);
    // A page without a next link is the last, likely partial, one: keep only full pages.
    if (next === undefined) {
      ring.pop();
      break;
    }
    ring.push(next);
    if (ring.length > keep) ring.shift();
    path = next;
  }
  if (ring.length === 0) throw new Error('the heavy customer has too few executions for a deep page');
  return { pages, deepPaths: ring, seconds: (performance.now() - started) / 1000 };
}

/** A word of at least four letters from each company name on the first list page of each project: searches that find something. */
export async function captureSearchTerms(base: string, keys: Map<string, string>, projects: string[], perProject = 20): Promise<{ project: string; q: string }[]> {
  const terms: { project: string; q: string }[] = [];
  for (const project of projects) {
    const res = await get(base, '/v1/companies?limit=200', { authorization: `Bearer ${keys.get(project)!}` });
    if (res.status !== 200) throw new Error(`GET /v1/companies answered ${res.status}: ${res.body.toString().slice(0, 300)}`);
    const words = new Set<string>();
    for (const summary of JSON.parse(res.body.toString()) as { companyName: string | null }[]) {
      const word = (summary.companyName ?? '').split(/[^\p{L}\p{N}]+/u).find((w) => w.length >= 4);
      if (word !== undefined) words.add(word.toLowerCase());
    }
    for (const q of [...words].slice(0, perProject)) terms.push({ project, q });
  }
  return terms;
}

export interface FeedCatchUp {
  changes: number;
  pages: number;
  seconds: number;
  /** Paths (with real cursors) of full pages, for the changes-page scenario. */
  paths: { project: string; path: string }[];
}

/**
 * One consumer per project reads its change feed from the start, a page after the other, until a
 * page comes back empty: changes per second over the whole walk, as a mirror catching up sees it.
 */
export async function catchUpFeeds(base: string, keys: Map<string, string>, projects: string[], firstPath: string, keep = 20): Promise<FeedCatchUp> {
  const started = performance.now();
  let changes = 0;
  let pages = 0;
  const paths: { project: string; path: string }[] = [];
  for (const project of projects) {
    const headers = { authorization: `Bearer ${keys.get(project)!}` };
    let path = firstPath;
    const ring: string[] = [];
    for (let i = 0; i < 100_000; i++) {
      const res = await get(base, path, headers);
      if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${res.body.toString().slice(0, 300)}`);
      pages += 1;
      const items = (JSON.parse(res.body.toString()) as unknown[]).length;
      if (items === 0) break;
      changes += items;
      ring.push(path);
      if (ring.length > keep) ring.shift();
      const next = nextLink(res.headers);
      if (next === undefined) throw new Error(`GET ${path}: a feed page without a Link to poll next`);
      path = next;
    }
    paths.push(...ring.map((p) => ({ project, path: p })));
  }
  return { changes, pages, seconds: (performance.now() - started) / 1000, paths };
}
