/**
 * Reads by id while clients push: wrk reads companies by id at --connections, alone and then
 * while --pushers clients (1) each push back to back over POST /v1/records, with the service's
 * push workers at each of --push-workers (0: the serving thread prepares the lines). With
 * `--records alerts` each push is the same body of large alerts (about 1 MB each, --alerts per
 * body: all prepared, none written again); with `--records companies`, --companies companies each
 * a version newer than the last push's (all prepared and written). Prints, per store, build and
 * setting, the reads' answers per second and p50/p99, and how many pushes finished and their
 * median and p99. With `--lock-holder MS` (SQLite), another process holds the file's write lock
 * for MS milliseconds out of every 2 × MS while the pushes run, as a concurrent import's
 * transactions would. `node --import tsx bench/push-stall.ts [--stores sqlite,postgres]
 * [--seconds S] [--reps N] [--connections N] [--pushers N] [--records alerts|companies]
 * [--alerts N] [--companies N] [--push-workers 0,1] [--lock-holder MS] [--service-root DIR ...]`
 * (each --service-root a checkout measured too, in rotation with this one).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { parseArgs } from 'node:util';
import { runCli } from './cli-runner.js';
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
    seconds: { type: 'string', default: '8' },
    reps: { type: 'string', default: '2' },
    connections: { type: 'string', default: '32' },
    pushers: { type: 'string', default: '1' },
    records: { type: 'string', default: 'alerts' },
    alerts: { type: 'string', default: '4' },
    companies: { type: 'string', default: '500' },
    'service-root': { type: 'string', multiple: true, default: [] },
    'lock-holder': { type: 'string', default: '0' },
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
const LOCK_MS = Number(values['lock-holder']);
if (values.records !== 'alerts' && values.records !== 'companies') throw new Error(`--records is alerts or companies, got ${values.records}`);

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

/**
 * Another process that holds the SQLite file's write lock for LOCK_MS out of every 2 × LOCK_MS
 * until killed (bounded by `seconds` anyway).
 */
function lockHolder(file: string, seconds: number): ChildProcess {
  const script = `
    const db = new (require('better-sqlite3'))(${JSON.stringify(file)});
    const pause = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
    const until = Date.now() + ${seconds * 1000};
    while (Date.now() < until) { db.exec('BEGIN IMMEDIATE'); pause(${LOCK_MS}); db.exec('COMMIT'); pause(${LOCK_MS}); }`;
  return spawn(process.execPath, ['-e', script], { cwd: root, stdio: 'ignore' });
}

/** Pushes a body of `bodyOf` back to back until `until`; answers each push's milliseconds. */
async function pusher(base: string, key: string, bodyOf: () => Buffer, until: number): Promise<number[]> {
  const latencies: number[] = [];
  while (Date.now() < until) {
    const body = bodyOf();
    const started = performance.now();
    const r = await request(`${base}/v1/records`, key, body);
    if (r.status !== 200) throw new Error(`push answered ${r.status}: ${r.body.slice(0, 200)}`);
    latencies.push(performance.now() - started);
  }
  return latencies;
}

interface Row {
  store: StoreKind;
  build: string;
  workers: number;
  mode: 'alone' | 'pushing';
  load: LoadResult;
  pushes: number[];
}

const { root, runDir, builds, file } = await prepareStallRun('push-stall', values['service-root'], {
  seed: 12,
  projects: [PROJECT],
  companies: 2000,
  individuals: 0,
  alerts: Number(values.alerts),
  largeAlertRatio: 1,
  executionsPerCustomer: 0,
  heavyCustomerExecutions: 0,
  extraFields: false,
});
const build = builds[0]!.build;
const dataLines = readFileSync(file, 'utf8').split('\n');
// Alerts: the data set's, pushed again and again (each push parses and prepares every line).
const alertsBody = Buffer.from(`${dataLines.filter((l) => l.startsWith('{"kind":"alert"')).join('\n')}\n`);
// Companies: the first ones of the data set, each push a second newer than the last (each push writes every line).
const companies = dataLines
  .filter((l) => l.startsWith('{"kind":"customer"') && l.includes('"type":"Company"'))
  .slice(0, Number(values.companies))
  .map((l) => JSON.parse(l) as { record: Record<string, unknown> });
let pushed = 0;
const companiesBody = (): Buffer => {
  const at = new Date(Date.UTC(2030, 0, 1) + 1000 * pushed++).toISOString();
  return Buffer.from(`${companies.map((c) => JSON.stringify({ ...c, record: { ...c.record, updatedAt: at } })).join('\n')}\n`);
};
const bodyOf = values.records === 'alerts' ? () => alertsBody : companiesBody;
process.stderr.write(`pushed body: ${values.records === 'alerts' ? `${Number(values.alerts)} alerts` : `${companies.length} companies`}, ${(bodyOf().length / 1e6).toFixed(1)} MB\n`);
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
        // Each build at each setting, one after the other.
        const variants = builds.flatMap(({ name, build: b }) => SETTINGS.map((workers) => ({ name, b, workers })));
        for (const { name, b, workers } of variants) {
          const service = await startService(b, store, { path: `/v1/companies?limit=1`, key }, [], ['--push-workers', String(workers)]);
          try {
            const page = await request(`${service.base}/v1/companies?limit=200`, key);
            const reads: RequestSpec[] = (JSON.parse(page.body) as { id: string }[]).map(({ id }) => ({ path: `/v1/companies/${id}`, headers: { authorization: `Bearer ${key}` } }));
            const gen = { threads: 1, dir: runDir };
            // A warm-up of both kinds of request (the push worker started) before anything is measured.
            await runLoad(gen, service.base, reads, CONNECTIONS, 2, 200);
            await pusher(service.base, writer, bodyOf, Date.now() + 1000);
            for (const mode of ['alone', 'pushing'] as const) {
              const until = Date.now() + SECONDS * 1000;
              const holder = mode === 'pushing' && LOCK_MS > 0 && kind === 'sqlite' ? lockHolder(store.url, SECONDS + 2) : undefined;
              const pushing = Array.from({ length: mode === 'pushing' ? PUSHERS : 0 }, () => pusher(service.base, writer, bodyOf, until));
              const load = await runLoad(gen, service.base, reads, CONNECTIONS, SECONDS, 200);
              const pushes = (await Promise.all(pushing)).flat();
              holder?.kill();
              rows.push({ store: kind, build: name, workers, mode, load, pushes });
              process.stderr.write(`${kind} ${name} workers=${workers} ${mode}: ${load.rps.toFixed(0)} reads/s, p99 ${load.p99.toFixed(2)} ms, ${pushes.length} pushes\n`);
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
process.stdout.write('store     build             push workers  mode       reads/s  p50 ms  p99 ms  pushes  push p50 ms  push p99 ms\n');
for (const r of rows) {
  const s = [...r.pushes].sort((a, b) => a - b);
  const p = (q: number): string => (s.length === 0 ? '-' : percentile(s, q).toFixed(0));
  process.stdout.write(
    `${r.store.padEnd(8)}  ${`${r.build} ${builtOf.get(r.build)}`.padEnd(16)}  ${String(r.workers).padStart(12)}  ${r.mode.padEnd(9)}  ${r.load.rps.toFixed(0).padStart(7)}  ${r.load.p50.toFixed(2).padStart(6)}  ${r.load.p99.toFixed(2).padStart(6)}  ${String(s.length).padStart(6)}  ${p(50).padStart(11)}  ${p(99).padStart(11)}\n`,
  );
}
