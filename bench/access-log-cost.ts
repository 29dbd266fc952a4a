/**
 * `npm run bench:access-log`: the access log's cost as machine CPU per answer. One store is served
 * twice, with the log and without; each run sends a fixed number of requests to one of them, in
 * pairs whose order alternates (on-off, off-on, ...), and reads the CPU of the service and of
 * every PostgreSQL process from /proc. A fixed count, not a fixed window, so a slow run is paid
 * in full. See README.md, "The access log's cost".
 */
import { parseArgs } from 'node:util';
import { join } from 'node:path';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { ensureServiceBuild } from './build-service.js';
import { ensureDataset } from './dataset.js';
import { createKeys, importDataset } from './import-store.js';
import { cpuSince, postgresPids } from './process-cpu.js';
import { profileSummaries } from './profile-summary.js';
import { compressedDataset, datasetOptions } from './scales.js';
import { requestsFor, companyPath, type RequestSpec, type ScenarioName } from './scenarios.js';
import { startService, type RunningService } from './service-process.js';
import { median } from './summary.js';
import { createStore, type BenchStore } from './stores.js';
import type { StoreKind } from './options.js';

const { values } = parseArgs({
  options: {
    store: { type: 'string', default: 'postgres' },
    scenario: { type: 'string', default: 'company' },
    requests: { type: 'string', default: '10000' },
    pairs: { type: 'string', default: '40' },
    connections: { type: 'string', default: '32' },
    'cpu-prof': { type: 'boolean', default: false },
    'pg-url': { type: 'string', default: process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test' },
  },
  strict: true,
});
const kind = values.store as StoreKind;
if (kind !== 'sqlite' && kind !== 'postgres') throw new Error(`--store takes sqlite or postgres, got ${kind}`);
const requests = Number(values.requests);
const pairs = Number(values.pairs);
const connections = Number(values.connections);
const scenario = values.scenario as ScenarioName;
const log = (line: string): void => void process.stderr.write(`${line}\n`);

/** Sends exactly `amount` requests drawn at random from `list`; returns the seconds it took. */
async function fixedLoad(base: string, list: RequestSpec[], amount: number): Promise<number> {
  const started = performance.now();
  const result = await autocannon({
    url: base,
    connections,
    amount,
    timeout: 30,
    // autocannon notices the last answer on its sampling tick (1 s by default).
    sampleInt: 50,
    requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, ...list[Math.floor(Math.random() * list.length)]! }) }],
  });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${result.non2xx} non-2xx answers, ${result.errors} errors`);
  // autocannon's own duration is in whole seconds.
  return (performance.now() - started) / 1000;
}

const root = fileURLToPath(new URL('..', import.meta.url));
const cacheDir = join(root, 'bench', '.cache');
const runDir = join(cacheDir, `access-log-${process.pid}`);
const build = await ensureServiceBuild(root, cacheDir);
const dataset = await ensureDataset(root, cacheDir, datasetOptions('small'), compressedDataset('small'));
let store: BenchStore | undefined;
const services: RunningService[] = [];
try {
  store = await createStore(kind, runDir, values['pg-url']);
  await importDataset(build, store, dataset.file);
  const m = dataset.manifest;
  const keys = await createKeys(build, store, m.projects);
  const probe = { path: companyPath(m.samples.company[0]!.id), key: keys.get(m.samples.company[0]!.project)! };
  const profiles = [
    { store: 'logged', dir: join(runDir, 'profiles', 'logged') },
    { store: 'unlogged', dir: join(runDir, 'profiles', 'unlogged') },
  ];
  const prof = (i: number): string[] => (values['cpu-prof'] ? ['--cpu-prof', '--cpu-prof-dir', profiles[i]!.dir] : []);
  const on = await startService(build, store, probe, prof(0));
  services.push(on);
  const off = await startService(build, store, probe, prof(1), ['--access-log', 'off']);
  services.push(off);
  const list = requestsFor(scenario, { manifest: m, keys, redactedKeys: keys, deepPaths: [], etags: new Map(), searchTerms: [], feedPaths: [] });
  const pidsOf = (s: RunningService): number[] => (kind === 'postgres' ? [s.pid, ...postgresPids()] : [s.pid]);
  const measure = async (s: RunningService): Promise<{ cpu: number; service: number; rps: number }> => {
    const pids = pidsOf(s);
    const [all, own] = [cpuSince(pids), cpuSince([s.pid])];
    const seconds = await fixedLoad(s.base, list, requests);
    // The log flushes every 250 ms: its last batch belongs to this run.
    await new Promise((r) => setTimeout(r, 300));
    return { cpu: all() / requests, service: own() / requests, rps: requests / seconds };
  };
  await fixedLoad(on.base, list, requests / 2);
  await fixedLoad(off.base, list, requests / 2);
  const costs: number[] = [];
  const rpsCosts: number[] = [];
  const cpuOn: number[] = [];
  const cpuOff: number[] = [];
  for (let p = 0; p < pairs; p++) {
    const order = p % 2 === 0 ? [on, off] : [off, on];
    const [a, b] = [await measure(order[0]!), await measure(order[1]!)];
    const [logged, plain] = order[0] === on ? [a, b] : [b, a];
    cpuOn.push(logged.cpu);
    cpuOff.push(plain.cpu);
    costs.push(logged.cpu / plain.cpu - 1);
    rpsCosts.push(1 - logged.rps / plain.rps);
    log(
      `pair ${p + 1}: CPU per answer ${logged.cpu.toFixed(0)} µs logged vs ${plain.cpu.toFixed(0)} µs not (${(100 * costs.at(-1)!).toFixed(1)} %), of which the service ${logged.service.toFixed(0)} vs ${plain.service.toFixed(0)} µs; req/s ${logged.rps.toFixed(0)} vs ${plain.rps.toFixed(0)}`,
    );
  }
  const higher = costs.filter((c) => c > 0).length;
  const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;
  /** Mean of `xs` with its 95 % interval (normal approximation). */
  const meanText = (xs: number[]): string => {
    const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
    const sd = Math.sqrt(xs.reduce((a, c) => a + (c - mean) ** 2, 0) / Math.max(1, xs.length - 1));
    const half = (1.96 * sd) / Math.sqrt(xs.length);
    return `mean ${pct(mean)} (95 % interval ${pct(mean - half)} to ${pct(mean + half)})`;
  };
  process.stdout.write(
    `ACCESS_LOG_CPU ${scenario} ${kind} c${connections} ${(100 * (median(cpuOn) / median(cpuOff) - 1)).toFixed(1)}%  (median CPU per answer ${median(cpuOn).toFixed(0)} vs ${median(cpuOff).toFixed(0)} µs; per pair median ${pct(median(costs))}, ${meanText(costs)}, higher with the log in ${higher} of ${pairs}; req/s cost per pair median ${pct(median(rpsCosts))}, ${meanText(rpsCosts)})\n`,
  );
  if (values['cpu-prof']) {
    for (const s of services.splice(0)) await s.stop();
    process.stdout.write(profileSummaries(profiles, 25).text);
  }
} finally {
  for (const s of services) await s.stop().catch(() => undefined);
  await store?.drop().catch(() => undefined);
  rmSync(runDir, { recursive: true, force: true });
}
process.exit(0);
