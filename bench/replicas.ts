/**
 * Three service processes behind HAProxy on the loopback, sharing one PostgreSQL schema and Redis:
 * the change feed read through the balancer while an import runs never skips, the access log holds
 * every 200, a key's rate budget holds across the replicas within 10 %, a revoked key is refused by
 * every replica within 1 s, and a replica killed with SIGKILL under load fails at most the requests
 * in flight on it and is taken out by the health check within 2 s. Prints the figures and exits 1
 * when one fails. Not a test: `npm run test:replicas` (HAProxy from Debian's package, installed
 * when missing, runs in the foreground with its own configuration in a temporary directory).
 * Options: --pg-url URL (postgres://postgres@127.0.0.1:5432/test) --redis-url URL (redis://127.0.0.1:6379).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createApiKey } from '../src/store/api-keys.js';
import { openStore } from '../src/store/open-store.js';
import type { Store } from '../src/store/store.js';
import { companyLine } from '../test/support/records.js';
import { ensureServiceBuild, type ServiceBuild } from './build-service.js';
import { cliEnv, runCli } from './cli-runner.js';
import { ensureDebianTool } from './debian-tool.js';
import { freePort } from './service-process.js';
import { createStore, type BenchStore } from './stores.js';

const { values } = parseArgs({
  options: {
    'pg-url': { type: 'string', default: process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test' },
    'redis-url': { type: 'string', default: 'redis://127.0.0.1:6379' },
  },
});
const PROJECT = 'replicas';
const RATE_BURST = 40;
const RATE_PER_SECOND = 20;
const BASE_COMPANIES = 200;
const IMPORTED_COMPANIES = 3000;

const log = (line: string): void => void process.stdout.write(`${line}\n`);
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const failures: string[] = [];
function check(ok: boolean, what: string): void {
  log(`  ${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failures.push(what);
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

/** One GET; status 0 for a connection failure. */
function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve) => {
    const req = http.get(url, { agent, headers, timeout: 10_000 }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
      res.on('error', () => resolve({ status: 0, body, headers: {} }));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve({ status: 0, body: '', headers: {} }));
  });
}

/** A replica: `serve` on its own port, sharing the store and Redis. */
interface Replica {
  name: string;
  port: number;
  child: ChildProcess;
}

function startReplica(build: ServiceBuild, store: BenchStore, name: string, port: number, filesDir: string): Replica {
  const env = {
    ...cliEnv(),
    DATABASE_URL: store.url,
    REDIS_URL: values['redis-url'],
    HOST: '127.0.0.1',
    PORT: String(port),
    LOG_LEVEL: 'warn',
    RATE_LIMIT_BURST: String(RATE_BURST),
    RATE_LIMIT_PER_SECOND: String(RATE_PER_SECOND),
    SHUTDOWN_GRACE_MS: '1000',
    FILES_DIR: filesDir,
  };
  const child = spawn(process.execPath, [...build.nodeArgs, 'serve'], { cwd: store.cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
  child.stderr!.setEncoding('utf8').on('data', (d: string) => process.stderr.write(`  [${name}] ${d}`));
  return { name, port, child };
}

/** HAProxy's configuration: round robin over the replicas, health checked on /healthz every 250 ms. */
function haproxyConfig(port: number, socket: string, replicas: Replica[]): string {
  return [
    'global',
    '  maxconn 4096',
    `  stats socket ${socket} mode 600 level admin`,
    'defaults',
    '  mode http',
    '  timeout connect 1s',
    '  timeout client 30s',
    '  timeout server 30s',
    '  timeout queue 5s',
    // A busy replica on a loaded machine may take a few hundred ms to answer /healthz; a dead one refuses at once.
    '  timeout check 1s',
    // A GET that met a dead replica is tried again on another one.
    '  retries 3',
    '  option redispatch 1',
    '  retry-on conn-failure empty-response response-timeout',
    'frontend fe',
    `  bind 127.0.0.1:${port}`,
    '  default_backend replicas',
    'backend replicas',
    '  balance roundrobin',
    '  option httpchk GET /healthz',
    '  http-reuse safe',
    // Below MAX_CONNECTIONS_PER_ADDRESS (64): every connection to a replica comes from HAProxy's address.
    ...replicas.map((r) => `  server ${r.name} 127.0.0.1:${r.port} check inter 250 fall 2 rise 2 maxconn 32`),
    '',
  ].join('\n');
}

/** One command on HAProxy's stats socket. */
function haproxyCommand(socket: string, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const c = connect(socket);
    let out = '';
    c.on('data', (d) => (out += d.toString()));
    c.on('error', reject);
    c.on('close', () => resolve(out));
    c.write(`${command}\n`);
  });
}

/** Each server's status (UP, DOWN, …) and current sessions from `show stat`. */
async function serverStats(socket: string): Promise<Map<string, { status: string; sessions: number }>> {
  const text = await haproxyCommand(socket, 'show stat');
  const [header, ...rows] = text.trim().split('\n');
  const cols = header!.replace(/^# /, '').split(',');
  const at = (name: string): number => cols.indexOf(name);
  const out = new Map<string, { status: string; sessions: number }>();
  for (const row of rows) {
    const f = row.split(',');
    if (f[at('pxname')] !== 'replicas' || f[at('svname')] === 'BACKEND') continue;
    out.set(f[at('svname')]!, { status: f[at('status')]!, sessions: Number(f[at('scur')]) });
  }
  return out;
}

/** Runs one request loop per key until `stop.at`; counts statuses (0: failed) and tells each answer to `onAnswer`. */
async function load(base: string, path: string, keys: string[], stop: { at: number }, onAnswer?: (status: number, at: number, requestId: string) => void): Promise<Map<number, number>> {
  const counts = new Map<number, number>();
  await Promise.all(
    keys.map(async (key) => {
      while (Date.now() < stop.at) {
        const requestId = `replicas-${randomUUID()}`;
        const r = await get(`${base}${path}`, { authorization: `Bearer ${key}`, 'x-request-id': requestId });
        counts.set(r.status, (counts.get(r.status) ?? 0) + 1);
        onAnswer?.(r.status, Date.now(), requestId);
      }
    }),
  );
  return counts;
}

const show = (counts: Map<number, number>): string =>
  [...counts]
    .sort((a, b) => a[0] - b[0])
    .map(([s, n]) => `${s === 0 ? 'failed' : s}: ${n}`)
    .join(', ');

function companies(n: number): { ids: string[]; lines: string[] } {
  const ids = Array.from({ length: n }, () => randomUUID());
  return { ids, lines: ids.map((id) => companyLine(PROJECT, id, randomUUID())) };
}

const root = fileURLToPath(new URL('..', import.meta.url));
const cacheDir = join(root, 'bench', '.cache');
const runDir = join(cacheDir, `replicas-${process.pid}`);
mkdirSync(runDir, { recursive: true, mode: 0o700 });
const haproxyBin = ensureDebianTool('haproxy', 'haproxy', log);
const build = await ensureServiceBuild(root, cacheDir);
const store = await createStore('postgres', runDir, values['pg-url']);
const replicas: Replica[] = [];
let haproxy: ChildProcess | undefined;
let admin: Store | undefined;
try {
  // The store: companies to read, imported (and migrated) through the CLI.
  const base = companies(BASE_COMPANIES);
  const baseFile = join(runDir, 'base.ndjson');
  writeFileSync(baseFile, `${base.lines.join('\n')}\n`, { mode: 0o600 });
  const imported = await runCli(build, ['import', baseFile, '--db', store.url], { cwd: store.cwd });
  if (imported.code !== 0) throw new Error(`import failed:\n${imported.stderr}`);
  admin = await openStore(store.url);
  const mint = async (name: string): Promise<{ key: string; id: string }> => {
    const { key, record } = await createApiKey(admin!, { project: PROJECT, name });
    return { key, id: record.id };
  };

  const filesDir = join(runDir, 'files');
  mkdirSync(filesDir, { recursive: true, mode: 0o700 });
  for (let i = 1; i <= 3; i++) replicas.push(startReplica(build, store, `r${i}`, await freePort(), filesDir));
  const socket = join(runDir, 'haproxy.sock');
  const port = await freePort();
  const cfg = join(runDir, 'haproxy.cfg');
  writeFileSync(cfg, haproxyConfig(port, socket, replicas), { mode: 0o600 });
  haproxy = spawn(haproxyBin, ['-db', '-f', cfg], { stdio: ['ignore', 'ignore', 'inherit'] });
  const lb = `http://127.0.0.1:${port}`;
  const upBy = Date.now() + 60_000;
  for (;;) {
    const stats = await serverStats(socket).catch(() => new Map());
    if (stats.size === 3 && [...stats.values()].every((s) => s.status === 'UP')) break;
    if (Date.now() > upBy) throw new Error(`replicas not all UP behind HAProxy within 60 s: ${JSON.stringify([...stats])}`);
    await sleep(200);
  }
  log(`3 replicas (ports ${replicas.map((r) => r.port).join(', ')}) behind HAProxy ${haproxyBin} on ${lb}; PostgreSQL schema and Redis shared; key budget ${RATE_BURST} burst, ${RATE_PER_SECOND}/s`);

  // 1. The change feed through the balancer while an import runs, and the access log of every 200.
  log(`change feed and access log, while ${IMPORTED_COMPANIES} companies are imported:`);
  const feedKey = await mint('feed');
  const logKeys = await Promise.all(Array.from({ length: 6 }, (_, i) => mint(`log-${i}`)));
  const added = companies(IMPORTED_COMPANIES);
  const addedFile = join(runDir, 'added.ndjson');
  writeFileSync(addedFile, `${added.lines.join('\n')}\n`, { mode: 0o600 });
  let importDone = false;
  const importRun = runCli(build, ['import', addedFile, '--db', store.url], { cwd: store.cwd }).then((r) => {
    importDone = true;
    return r;
  });
  const seen = new Set<string>();
  let feedAnswers = 0;
  let feedErrors = 0;
  let next = `${lb}/v1/changes?limit=200`;
  const served = new Set<string>();
  const readers = { at: Date.now() + 300_000 };
  const reading = load(lb, `/v1/companies/${base.ids[0]}/details`, logKeys.map((k) => k.key), readers, (status, _at, id) => {
    if (status === 200) served.add(id);
  });
  const feedBy = Date.now() + 120_000;
  for (let emptyAfterImport = 0; emptyAfterImport < 2 && Date.now() < feedBy; ) {
    const wasDone = importDone;
    const r = await get(next, { authorization: `Bearer ${feedKey.key}` });
    feedAnswers++;
    if (r.status !== 200) {
      feedErrors++;
      await sleep(100);
      continue;
    }
    const items = JSON.parse(r.body) as { id: string }[];
    for (const item of items) seen.add(item.id);
    const link = /<([^>]+)>;\s*rel="next"/.exec(String(r.headers.link ?? ''));
    if (link) next = new URL(link[1]!, lb).href;
    if (items.length === 0) {
      if (wasDone) emptyAfterImport++;
      await sleep(50);
    }
  }
  const importResult = await importRun;
  const missing = [...base.ids, ...added.ids].filter((id) => !seen.has(id));
  check(importResult.code === 0, `the import while reading stored its ${IMPORTED_COMPANIES} companies (exit ${importResult.code})`);
  check(missing.length === 0, `the feed, read in ${feedAnswers} answers through the balancer, held all ${BASE_COMPANIES + IMPORTED_COMPANIES} companies (${missing.length} missing; ${feedErrors} answers not 200, polled again)`);
  readers.at = 0;
  const readCounts = await reading;
  await sleep(1500); // the access log is written within ACCESS_LOG_FLUSH_MS (250 ms) of each answer
  const printed = await runCli(build, ['access-log', '--project', PROJECT, '--json', '--limit', '1000000', '--db', store.url], { cwd: store.cwd });
  const logged = new Set<string>();
  for (const line of printed.stdout.split('\n')) {
    if (!line.startsWith('{')) continue;
    const e = JSON.parse(line) as { requestId: string; status: number };
    if (e.status === 200) logged.add(e.requestId);
  }
  const unlogged = [...served].filter((id) => !logged.has(id));
  check(served.size > 0 && unlogged.length === 0, `access log: ${served.size} answers 200 to readers on all replicas (${show(readCounts)}), ${served.size - unlogged.length} of them in the log (${unlogged.length} missing)`);

  // 2. One key's budget across the three replicas.
  const rateKey = await mint('rate');
  const window = 5_000;
  const started = Date.now();
  const rateCounts = await load(lb, `/v1/companies/${base.ids[1]}/details`, Array.from({ length: 24 }, () => rateKey.key), { at: started + window });
  const seconds = (Date.now() - started) / 1000;
  const allowed = RATE_BURST + RATE_PER_SECOND * seconds;
  const ok200 = rateCounts.get(200) ?? 0;
  const deviation = Math.abs(ok200 - allowed) / allowed;
  check(deviation <= 0.1 && (rateCounts.get(429) ?? 0) > ok200, `rate budget: one key, 24 loops through the balancer for ${seconds.toFixed(1)} s: ${show(rateCounts)}; the budget allows ${allowed.toFixed(0)}, ${(deviation * 100).toFixed(1)} % off (bound 10 %)`);

  // 3. A revoked key, refused by every replica.
  const revoked = await mint('revoked');
  for (const r of replicas) {
    const a = await get(`http://127.0.0.1:${r.port}/v1/companies/${base.ids[2]}/details`, { authorization: `Bearer ${revoked.key}` });
    if (a.status !== 200) throw new Error(`${r.name} answered ${a.status} before the revocation`);
  }
  const revokedAt = performance.now();
  await admin.revokeApiKey(revoked.id, new Date().toISOString());
  const refusedAfter = await Promise.all(
    replicas.map(async (r) => {
      for (;;) {
        const a = await get(`http://127.0.0.1:${r.port}/v1/companies/${base.ids[2]}/details`, { authorization: `Bearer ${revoked.key}` });
        if (a.status === 401) return performance.now() - revokedAt;
        if (performance.now() - revokedAt > 10_000) return Infinity;
        await sleep(10);
      }
    }),
  );
  check(Math.max(...refusedAfter) <= 1000, `revocation: refused by ${replicas.map((r, i) => `${r.name} after ${refusedAfter[i]!.toFixed(0)} ms`).join(', ')} (bound 1000 ms)`);

  // 4. SIGKILL of one replica under load.
  const killKeys = await Promise.all(Array.from({ length: 16 }, (_, i) => mint(`kill-${i}`)));
  const killAt = Date.now() + 3000;
  const loadEnd = killAt + 5000;
  let failedAfterKill = 0;
  let failedBeforeKill = 0;
  const killLoad = load(lb, `/v1/companies/${base.ids[3]}/details`, killKeys.map((k) => k.key), { at: loadEnd }, (status, at) => {
    if (status === 200 || status === 429) return;
    if (at >= killAt) failedAfterKill++;
    else failedBeforeKill++;
  });
  await sleep(killAt - Date.now());
  const victim = replicas[1]!;
  const inFlight = (await serverStats(socket)).get(victim.name)?.sessions ?? -1;
  const killedAt = performance.now();
  victim.child.kill('SIGKILL');
  let downAfter = Infinity;
  while (performance.now() - killedAt < 10_000) {
    if ((await serverStats(socket)).get(victim.name)?.status.startsWith('DOWN')) {
      downAfter = performance.now() - killedAt;
      break;
    }
    await sleep(20);
  }
  const killCounts = await killLoad;
  check(downAfter <= 2000, `SIGKILL of ${victim.name}: HAProxy's health check took it out after ${downAfter.toFixed(0)} ms (bound 2000 ms)`);
  check(failedBeforeKill === 0 && failedAfterKill <= killKeys.length, `SIGKILL under load (16 loops, ${show(killCounts)}): ${failedAfterKill} requests failed after the kill, ${inFlight} were on ${victim.name} as it was killed; at most the 16 in flight may fail`);
} finally {
  for (const r of replicas) if (r.child.exitCode === null && r.child.signalCode === null) r.child.kill('SIGTERM');
  await Promise.all(replicas.map((r) => (r.child.exitCode === null && r.child.signalCode === null ? once(r.child, 'exit') : undefined)));
  if (haproxy !== undefined && haproxy.exitCode === null) {
    haproxy.kill('SIGTERM');
    await once(haproxy, 'exit');
  }
  agent.destroy();
  await admin?.close();
  await store.drop();
  rmSync(runDir, { recursive: true, force: true });
}
log(failures.length === 0 ? 'PASS' : `FAIL: ${failures.length} check(s) failed`);
process.exit(failures.length === 0 ? 0 : 1);
