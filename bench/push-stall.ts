/**
 * Reads by id while clients push: wrk reads companies by id at --connections, alone and then
 * while --pushers clients (1) each push the same body of large alerts (about 1 MB each, --alerts
 * per body) back to back over POST /v1/records, with the service's push workers at each of
 * --push-workers (0: the serving thread prepares the lines). Prints, per store and setting, the
 * reads' answers per second and p50/p99, and how many pushes finished and their median and p99.
 * `node --import tsx bench/push-stall.ts [--stores sqlite,postgres] [--seconds S] [--reps N]
 * [--connections N] [--pushers N] [--alerts N] [--push-workers 0,1]`
 */
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ensureServiceBuild } from './build-service.js';
import { runCli } from './cli-runner.js';
import { createKeys } from './import-store.js';
import { ensureWrk, runLoad, type LoadResult } from './load.js';
import type { StoreKind } from './options.js';
import type { RequestSpec } from './scenarios.js';
import { startService } from './service-process.js';
import { createStore, settleStore, type BenchStore } from './stores.js';
import { percentile } from './summary.js';
import { generateDemo } from '../src/demo/index.js';

const { values } = parseArgs({
  options: {
    stores: { type: 'string', default: 'sqlite,postgres' },
    seconds: { type: 'string', default: '8' },
    reps: { type: 'string', default: '2' },
    connections: { type: 'string', default: '32' },
    pushers: { type: 'string', default: '1' },
    alerts: { type: 'string', default: '4' },
    'push-workers': { type: 'string', default: '0,1' },
    'pg-url': { type: 'string', default: process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test' },
  },
});
const STORES = values.stores.split(',') as StoreKind[];
const SECONDS = Number(values.seconds);
const CONNECTIONS = Number(values.connections);
const PUSHERS = Number(values.pushers);
const SETTINGS = values['push-workers'].split(',').map(Number);
const PROJECT = 'proj-acme-exchange';

/** One request with a key over node's default agent; resolves to the status and body. */
function request(url: string, key: string, body?: Buffer): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const headers: http.OutgoingHttpHeaders = { authorization: `Bearer ${key}`, 'accept-encoding': 'identity' };
    if (body !== undefined) Object.assign(headers, { 'content-type': 'application/x-ndjson', 'content-length': body.length });
    const req = http.request(url, { method: body === undefined ? 'GET' : 'POST', headers }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Pushes `body` back to back until `until`; answers each push's milliseconds. */
async function pusher(base: string, key: string, body: Buffer, until: number): Promise<number[]> {
  const latencies: number[] = [];
  while (Date.now() < until) {
    const started = performance.now();
    const r = await request(`${base}/v1/records`, key, body);
    if (r.status !== 200) throw new Error(`push answered ${r.status}: ${r.body.slice(0, 200)}`);
    latencies.push(performance.now() - started);
  }
  return latencies;
}

interface Row {
  store: StoreKind;
  workers: number;
  mode: 'alone' | 'pushing';
  load: LoadResult;
  pushes: number[];
}

const root = fileURLToPath(new URL('..', import.meta.url));
const cacheDir = join(root, 'bench', '.cache');
const runDir = join(cacheDir, `push-stall-${process.pid}`);
mkdirSync(runDir, { recursive: true, mode: 0o700 });
ensureWrk((l) => process.stderr.write(`${l}\n`));
const build = await ensureServiceBuild(root, cacheDir);
const file = join(runDir, 'data.ndjson');
const lines = [...generateDemo({ seed: 12, projects: [PROJECT], companies: 2000, individuals: 0, alerts: Number(values.alerts), largeAlertRatio: 1, executionsPerCustomer: 0, heavyCustomerExecutions: 0, extraFields: false })];
const fd = openSync(file, 'w', 0o600);
for (const line of lines) writeSync(fd, `${line}\n`);
closeSync(fd);
// The pushed body: the data set's alerts, pushed again and again (each push parses and prepares every line).
const body = Buffer.from(`${readFileSync(file, 'utf8').split('\n').filter((l) => l.startsWith('{"kind":"alert"')).join('\n')}\n`);
process.stderr.write(`pushed body: ${Number(values.alerts)} alerts, ${(body.length / 1e6).toFixed(1)} MB\n`);
const rows: Row[] = [];
try {
  for (const kind of STORES) {
    const store: BenchStore = await createStore(kind, runDir, values['pg-url']);
    try {
      const imported = await runCli(build, ['import', file, '--db', store.url], { cwd: store.cwd });
      if (imported.code !== 0) throw new Error(`import into ${kind} failed:\n${imported.stderr}`);
      await settleStore(store);
      const key = (await createKeys(build, store, [PROJECT])).get(PROJECT)!;
      const writer = (await createKeys(build, store, [PROJECT], ['records:write'])).get(PROJECT)!;
      for (let rep = 0; rep < Number(values.reps); rep++) {
        for (const workers of SETTINGS) {
          const service = await startService(build, store, { path: `/v1/companies?limit=1`, key }, [], ['--push-workers', String(workers)]);
          try {
            const page = await request(`${service.base}/v1/companies?limit=200`, key);
            const reads: RequestSpec[] = (JSON.parse(page.body) as { id: string }[]).map(({ id }) => ({ path: `/v1/companies/${id}`, headers: { authorization: `Bearer ${key}` } }));
            const gen = { threads: 1, dir: runDir };
            // A warm-up of both kinds of request (the push worker started) before anything is measured.
            await runLoad(gen, service.base, reads, CONNECTIONS, 2, 200);
            await pusher(service.base, writer, body, Date.now() + 1000);
            for (const mode of ['alone', 'pushing'] as const) {
              const until = Date.now() + SECONDS * 1000;
              const pushing = Array.from({ length: mode === 'pushing' ? PUSHERS : 0 }, () => pusher(service.base, writer, body, until));
              const load = await runLoad(gen, service.base, reads, CONNECTIONS, SECONDS, 200);
              const pushes = (await Promise.all(pushing)).flat();
              rows.push({ store: kind, workers, mode, load, pushes });
              process.stderr.write(`${kind} workers=${workers} ${mode}: ${load.rps.toFixed(0)} reads/s, p99 ${load.p99.toFixed(2)} ms, ${pushes.length} pushes\n`);
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
process.stdout.write('store     push workers  mode       reads/s  p50 ms  p99 ms  pushes  push p50 ms  push p99 ms\n');
for (const r of rows) {
  const s = [...r.pushes].sort((a, b) => a - b);
  const p = (q: number): string => (s.length === 0 ? '-' : percentile(s, q).toFixed(0));
  process.stdout.write(
    `${r.store.padEnd(8)}  ${String(r.workers).padStart(12)}  ${r.mode.padEnd(9)}  ${r.load.rps.toFixed(0).padStart(7)}  ${r.load.p50.toFixed(2).padStart(6)}  ${r.load.p99.toFixed(2).padStart(6)}  ${String(s.length).padStart(6)}  ${p(50).padStart(11)}  ${p(99).padStart(11)}\n`,
  );
}
