/**
 * Reads by id while clients search: wrk reads companies by id at --connections, alone and then
 * while --searchers clients (1) each run broad searches back to back, each a page not asked before (so the page
 * cache cannot answer it and the store ranks every match); with --kind filter, pages of a country no
 * company has instead (each walks the project's range of the page index). Prints, per store and build, the reads'
 * answers per second and p50/p99, and how many searches finished and their median and p99.
 * `node --import tsx bench/search-stall.ts [--stores sqlite,postgres] [--companies N] [--seconds S]
 * [--reps N] [--connections N] [--searchers N] [--kind search|filter] [--service-root DIR ...]` (each --service-root a checkout measured too,
 * in rotation with this one).
 */
import { rmSync } from 'node:fs';
import http from 'node:http';
import { parseArgs } from 'node:util';
import { runCli } from './cli-runner.js';
import { nextLink } from './http-get.js';
import { createKeys } from './import-store.js';
import { runLoad, type LoadResult } from './load.js';
import type { StoreKind } from './options.js';
import type { RequestSpec } from './scenarios.js';
import { startService } from './service-process.js';
import { createStore, settleStore, type BenchStore } from './stores.js';
import { prepareStallRun } from './stall-run.js';
import { percentile } from './summary.js';

const { values } = parseArgs({
  options: {
    stores: { type: 'string', default: 'sqlite,postgres' },
    companies: { type: 'string', default: '40000' },
    seconds: { type: 'string', default: '8' },
    reps: { type: 'string', default: '2' },
    connections: { type: 'string', default: '32' },
    searchers: { type: 'string', default: '1' },
    kind: { type: 'string', default: 'search' },
    'service-root': { type: 'string', multiple: true, default: [] },
    'pg-url': { type: 'string', default: process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test' },
  },
});
const STORES = values.stores.split(',') as StoreKind[];
const SECONDS = Number(values.seconds);
const CONNECTIONS = Number(values.connections);
const SEARCHERS = Number(values.searchers);
if (values.kind !== 'search' && values.kind !== 'filter') throw new Error(`--kind is search or filter, got ${values.kind}`);
// A filter no company matches: the page walks the project's whole range of the page index.
const FILTER = values.kind === 'filter';
const PROJECT = 'proj-acme-exchange';
// Prefixes of most names and identifiers: each search ranks a large share of the project's companies.
const BROAD = ['a', 'e', 's', 'acme', 'ltd'];

/** GET with a key, over node's default agent (no cap on sockets: every searcher has its own); resolves to the status, headers and body. */
function get(url: string, key: string): Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { authorization: `Bearer ${key}`, 'accept-encoding': 'identity' } }, (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (d: string) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
      })
      .on('error', reject);
  });
}

/** Up to `n` company ids of the project, from its list pages. */
async function companyIds(base: string, key: string, n: number): Promise<string[]> {
  const ids: string[] = [];
  let url: string | undefined = `${base}/v1/companies?limit=200`;
  while (url !== undefined && ids.length < n) {
    const r = await get(url, key);
    if (r.status !== 200) throw new Error(`company list answered ${r.status}`);
    for (const c of JSON.parse(r.body) as { id: string }[]) ids.push(c.id);
    const next = nextLink(r.headers);
    url = next === undefined ? undefined : `${base}${next}`;
  }
  return ids.slice(0, n);
}

/** Searches (or filtered pages) one after another until `until`; each with an `updatedTo` not asked before. */
async function searcher(base: string, key: string, until: number, first: number): Promise<number[]> {
  const latencies: number[] = [];
  for (let i = first; Date.now() < until; i++) {
    const q = BROAD[i % BROAD.length]!;
    // A bound far past every company's updatedAt: the same matches, a page key not asked before.
    const second = Math.floor(i / BROAD.length) % 86_400;
    const two = (n: number): string => String(n).padStart(2, '0');
    const to = `2099-12-31T${two(Math.floor(second / 3600))}:${two(Math.floor(second / 60) % 60)}:${two(second % 60)}Z`;
    const started = performance.now();
    const r = await get(`${base}/v1/companies?${FILTER ? 'country=ATA' : `q=${q}`}&updatedTo=${to}`, key);
    if (r.status !== 200) throw new Error(`search answered ${r.status}: ${r.body.slice(0, 200)}`);
    latencies.push(performance.now() - started);
  }
  return latencies;
}

interface Row {
  store: StoreKind;
  build: string;
  mode: 'alone' | 'searching';
  load: LoadResult;
  searches: number[];
}

const { runDir, builds, file } = await prepareStallRun('search-stall', values['service-root'], {
  seed: 11,
  projects: [PROJECT],
  companies: Number(values.companies),
  individuals: 0,
  alerts: 0,
  executionsPerCustomer: 0,
  heavyCustomerExecutions: 0,
  extraFields: false,
});
const rows: Row[] = [];
let searchCount = 0;
try {
  for (const kind of STORES) {
    const store: BenchStore = await createStore(kind, runDir, values['pg-url']);
    try {
      const imported = await runCli(builds[0]!.build, ['import', file, '--db', store.url], { cwd: store.cwd });
      if (imported.code !== 0) throw new Error(`import into ${kind} failed:\n${imported.stderr}`);
      await settleStore(store);
      const key = (await createKeys(builds[0]!.build, store, [PROJECT])).get(PROJECT)!;
      for (let rep = 0; rep < Number(values.reps); rep++) {
        for (const { name, build } of builds) {
          const service = await startService(build, store, { path: `/v1/companies?limit=1`, key });
          try {
            const ids = await companyIds(service.base, key, 2000);
            const reads: RequestSpec[] = ids.map((id) => ({ path: `/v1/companies/${id}`, headers: { authorization: `Bearer ${key}` } }));
            const gen = { threads: 1, dir: runDir };
            // A warm-up of both kinds of request before anything is measured.
            await runLoad(gen, service.base, reads, CONNECTIONS, 2, 200);
            await searcher(service.base, key, Date.now() + 2000, 400_000 + 1_000 * rep);
            for (const mode of ['alone', 'searching'] as const) {
              const until = Date.now() + SECONDS * 1000;
              // Each searcher starts far from the others: none asks a page another has asked.
              const searching = Array.from({ length: mode === 'searching' ? SEARCHERS : 0 }, (_, k) => searcher(service.base, key, until, searchCount + k * 50_000));
              const load = await runLoad(gen, service.base, reads, CONNECTIONS, SECONDS, 200);
              const searches = (await Promise.all(searching)).flat();
              searchCount += searches.length;
              rows.push({ store: kind, build: name, mode, load, searches });
              process.stderr.write(`${kind} ${name} ${mode}: ${load.rps.toFixed(0)} reads/s, p99 ${load.p99.toFixed(2)} ms, ${searches.length} searches\n`);
            }
          } finally {
            await service.stop();
          }
        }
      }
    } finally {
      await store.drop();
    }
  }
} finally {
  rmSync(runDir, { recursive: true, force: true });
}
const builtOf = new Map(builds.map((b) => [b.name, b.build.hash.slice(0, 8)]));
process.stdout.write('store     build             mode       reads/s  p50 ms  p99 ms  searches  search p50 ms  search p99 ms\n');
for (const r of rows) {
  const s = [...r.searches].sort((a, b) => a - b);
  process.stdout.write(
    `${r.store.padEnd(8)}  ${`${r.build} ${builtOf.get(r.build)}`.padEnd(16)}  ${r.mode.padEnd(9)}  ${r.load.rps.toFixed(0).padStart(7)}  ${r.load.p50.toFixed(2).padStart(6)}  ${r.load.p99.toFixed(2).padStart(6)}  ${String(s.length).padStart(8)}  ${(s.length === 0 ? '-' : percentile(s, 50).toFixed(1)).padStart(13)}  ${(s.length === 0 ? '-' : percentile(s, 99).toFixed(1)).padStart(13)}\n`,
  );
}
