/**
 * Hostile slow readers against one service process: SLOW_CLIENTS connections, each from its own
 * loopback address, pipeline requests for a ~1 MB alert and read 1 KB a second (with --reconnect,
 * again a second after they are cut), while one normal client reads a small record in a loop. Prints the service's RSS
 * and the normal client's latencies; exits 1 when the RSS passes RSS_BOUND_MB or the p99 passes
 * P99_BOUND_MS. Not a test: `npm run test:slow-clients` (which raises `ulimit -n` first).
 * Options: --clients N (800) --addresses N (1) --seconds S (20) --pipelined N (4) --reconnect --unlimited-rate
 * --rss-bound-mb MB (400) --p99-bound-ms MS (50) --service-root DIR (a checkout whose src/ to serve instead).
 */
import { readFileSync, writeFileSync, mkdirSync, rmSync } from 'node:fs';
import http from 'node:http';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ensureServiceBuild } from './build-service.js';
import { runCli } from './cli-runner.js';
import { createKeys } from './import-store.js';
import { freePort, startService } from './service-process.js';
import { createStore } from './stores.js';
import { percentile } from './summary.js';
import { alertLine, companyLine } from '../test/support/records.js';
import { SETTINGS } from '../src/config/settings.js';

const { values } = parseArgs({
  options: {
    clients: { type: 'string', default: '800' },
    seconds: { type: 'string', default: '20' },
    pipelined: { type: 'string', default: '4' },
    'rss-bound-mb': { type: 'string', default: '400' },
    'p99-bound-ms': { type: 'string', default: '50' },
    'unlimited-rate': { type: 'boolean', default: false },
    addresses: { type: 'string', default: '1' },
    reconnect: { type: 'boolean', default: false },
    'service-root': { type: 'string' },
  },
});
const CLIENTS = Number(values.clients);
const SECONDS = Number(values.seconds);
const PIPELINED = Number(values.pipelined);
const ADDRESSES = Math.max(1, Math.min(Number(values.addresses), 62_500));
const RSS_BOUND_MB = Number(values['rss-bound-mb']);
const P99_BOUND_MS = Number(values['p99-bound-ms']);
const PROJECT = 'slow-clients';
const NORMAL_PROJECT = 'normal-client';
const COMPANY = '0e5b7a4c-1f2d-4e3a-9b8c-7d6e5f4a3b21';
const ALERT = '1f6c8b5d-2a3e-4f4b-8c9d-8e7f6a5b4c32';
const READ_BYTES_PER_SECOND = 1024;

/** The open-files limit of this process: each slow client costs one descriptor here and one in the service. */
function openFilesLimit(): number {
  const m = /Max open files\s+(\d+)/.exec(readFileSync('/proc/self/limits', 'utf8'));
  return m ? Number(m[1]) : 0;
}

/** The service's heap and Buffer memory from its /metrics, in MB. */
async function memoryBreakdown(port: number): Promise<string> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  const mb = (name: string): string => {
    const m = new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text);
    return m ? (Number(m[1]) / 1024 / 1024).toFixed(0) : '?';
  };
  return `heap used ${mb('nodejs_heap_size_used_bytes')} MB, external ${mb('nodejs_external_memory_bytes')} MB`;
}

/** Resident set size of a process in MB. */
function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : 0;
}

/** A company, and an alert of about 1 MB with one document URL signed per answer. */
function datasetLines(): string[] {
  const line = JSON.parse(alertLine(PROJECT, ALERT, COMPANY, '5b0c2f0e-3a1d-4c6b-9e8f-7a6b5c4d3e2f')) as { record: { transactions: unknown[] } };
  line.record.transactions = Array.from({ length: 9000 }, (_, i) => ({
    id: `t-${i}`,
    transactionType: 'crypto',
    customerId: COMPANY,
    transactionInfo: { currencyCode: 'BTC', amount: `${i}.5`, direction: i % 2 === 0 ? 'IN' : 'OUT' },
  }));
  return [companyLine(NORMAL_PROJECT, COMPANY, '6c1d3f1e-4b2e-4d7c-8f9a-8b7c6d5e4f30'), JSON.stringify(line)];
}

/** A slow client: pipelines PIPELINED requests, reads 1 KB a second, reconnects a second after it is cut. */
function slowClient(port: number, index: number, key: string, until: number, stats: { connects: number; cut: number; bytes: number; refused: number; limited: number }): void {
  // Spread over ADDRESSES loopback addresses, none the normal client's (127.0.0.1).
  const slot = index % ADDRESSES;
  const localAddress = `127.1.${Math.floor(slot / 250)}.${(slot % 250) + 2}`;
  const request = `GET /v1/alerts/${ALERT} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nAccept-Encoding: identity\r\n\r\n`;
  const start = (): void => {
    if (Date.now() >= until) return;
    stats.connects++;
    const socket: Socket = connect({ host: '127.0.0.1', port, localAddress });
    let first = true;
    socket.pause();
    socket.on('error', () => undefined);
    socket.once('connect', () => socket.write(request.repeat(PIPELINED)));
    const tick = setInterval(() => {
      const chunk = socket.read(READ_BYTES_PER_SECOND) as Buffer | null;
      if (chunk === null) return;
      if (first && chunk.toString('latin1', 0, 12).includes(' 503')) stats.refused++;
      if (first && chunk.toString('latin1', 0, 12).includes(' 429')) stats.limited++;
      first = false;
      stats.bytes += chunk.length;
    }, 1000);
    socket.once('close', () => {
      clearInterval(tick);
      if (Date.now() < until) {
        stats.cut++;
        if (values.reconnect) setTimeout(start, 1000);
      }
    });
    setTimeout(() => socket.destroy(), Math.max(0, until - Date.now()));
  };
  start();
}

/** The normal client: one request at a time over keep-alive, each latency kept. */
async function normalClient(base: string, key: string, until: number): Promise<{ latencies: number[]; failures: number }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const latencies: number[] = [];
  let failures = 0;
  while (Date.now() < until) {
    const started = performance.now();
    const status = await new Promise<number>((resolve) => {
      const req = http.get(`${base}/v1/companies/${COMPANY}/details`, { agent, headers: { authorization: `Bearer ${key}` }, timeout: 10_000 }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', () => resolve(0));
      });
      req.on('timeout', () => req.destroy());
      req.on('error', () => resolve(0));
    });
    if (status === 200) latencies.push(performance.now() - started);
    else failures++;
    await new Promise((r) => setTimeout(r, 20));
  }
  agent.destroy();
  return { latencies, failures };
}

const limit = openFilesLimit();
if (limit < CLIENTS * 2 + 256) {
  process.stderr.write(`open files limit ${limit} is below ${CLIENTS * 2 + 256}: run through npm run test:slow-clients (it raises ulimit -n)\n`);
  process.exit(2);
}
const root = fileURLToPath(new URL('..', import.meta.url));
const cacheDir = join(root, 'bench', '.cache');
const runDir = join(cacheDir, `slow-clients-${process.pid}`);
mkdirSync(runDir, { recursive: true, mode: 0o700 });
// --service-root: the service of another checkout (an earlier version), measured the same way.
const build = await ensureServiceBuild(values['service-root'] ?? root, cacheDir);
const store = await createStore('sqlite', runDir, '');
let failed = false;
try {
  const file = join(runDir, 'data.ndjson');
  writeFileSync(file, `${datasetLines().join('\n')}\n`, { mode: 0o600 });
  const imported = await runCli(build, ['import', file, '--db', store.url], { cwd: store.cwd });
  if (imported.code !== 0) throw new Error(`import failed:\n${imported.stderr}\n${readFileSync(`${file}.rejects.ndjson`, 'utf8').slice(0, 2000)}`);
  const keys = await createKeys(build, store, [PROJECT, NORMAL_PROJECT]);
  const key = keys.get(PROJECT)!;
  const normalKey = keys.get(NORMAL_PROJECT)!;
  // The slow clients share one key with the service's default budget, unless asked to lift it.
  const budget = values['unlimited-rate'] ? [] : ['--rate-limit-burst', String(SETTINGS.rateLimitBurst.default), '--rate-limit-per-second', String(SETTINGS.rateLimitPerSecond.default)];
  // The service's own per-address cap, not the benchmark's (which lets its one generator address hold many connections).
  const cap = ['--max-connections-per-address', String(SETTINGS.maxConnectionsPerAddress.default)];
  const metricsPort = await freePort();
  const service = await startService(build, store, { path: `/v1/companies/${COMPANY}/details`, key: normalKey }, [], [...budget, ...cap, '--metrics-port', String(metricsPort)]);
  try {
    const port = Number(new URL(service.base).port);
    const size = await new Promise<number>((resolve, reject) => {
      http.get(`${service.base}/v1/alerts/${ALERT}`, { headers: { authorization: `Bearer ${key}`, 'accept-encoding': 'identity' } }, (res) => {
        let n = 0;
        res.on('data', (c: Buffer) => (n += c.length));
        res.on('end', () => (res.statusCode === 200 ? resolve(n) : reject(new Error(`alert answered ${res.statusCode}`))));
      });
    });
    const baseline = rssMb(service.pid);
    const until = Date.now() + SECONDS * 1000;
    const stats = { connects: 0, cut: 0, bytes: 0, refused: 0, limited: 0 };
    const rss: number[] = [];
    let heldAtPeak = '';
    const sampler = setInterval(() => {
      const now = rssMb(service.pid);
      if (now > Math.max(0, ...rss)) void memoryBreakdown(metricsPort).then((b) => (heldAtPeak = b), () => undefined);
      rss.push(now);
    }, 250);
    for (let i = 0; i < CLIENTS; i++) slowClient(port, i, key, until, stats);
    const normal = await normalClient(service.base, normalKey, until);
    clearInterval(sampler);
    await new Promise((r) => setTimeout(r, 10_000));
    const after = rssMb(service.pid);
    const sorted = [...normal.latencies].sort((a, b) => a - b);
    const peak = Math.max(...rss);
    process.stdout.write(`RSS every second: ${rss.filter((_, i) => i % 4 === 0).map((m) => m.toFixed(0)).join(" ")}\n`);
    const p99 = percentile(sorted, 99);
    const lines = [
      `alert answer: ${(size / 1024 / 1024).toFixed(2)} MB; ${CLIENTS} slow clients from ${ADDRESSES} addresses x ${PIPELINED} pipelined requests, ${READ_BYTES_PER_SECOND} B/s each, ${SECONDS} s`,
      `slow clients: ${stats.connects} connections, ${stats.cut} closed by the service${values.reconnect ? ' (each reconnected a second later)' : ''}, first answer 429 on ${stats.limited}, 503 on ${stats.refused}, ${(stats.bytes / 1024 / 1024).toFixed(1)} MB read; key budget ${values['unlimited-rate'] ? 'lifted' : 'the default'}`,
      `service RSS: ${baseline.toFixed(0)} MB before, peak ${peak.toFixed(0)} MB (bound ${RSS_BOUND_MB}), ${after.toFixed(0)} MB 10 s after the clients left`,
      `near the peak: ${heldAtPeak}; 10 s after: ${await memoryBreakdown(metricsPort).catch(() => 'unread')}`,
      `normal client: ${normal.latencies.length} answers, ${normal.failures} failures, p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms (bound ${P99_BOUND_MS}), max ${percentile(sorted, 100).toFixed(1)} ms`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
    if (peak > RSS_BOUND_MB) failed = true;
    if (!(p99 <= P99_BOUND_MS) || normal.failures > 0) failed = true;
    process.stdout.write(failed ? 'FAIL\n' : 'PASS\n');
  } finally {
    await service.stop();
  }
} finally {
  await store.drop();
  rmSync(runDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
