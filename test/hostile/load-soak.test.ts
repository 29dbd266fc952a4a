/**
 * Load and soak, bounded and on loopback only: past the rate limit the service answers 429s and
 * stays responsive for other keys; 200,000 requests leave memory flat; slow clients block no one.
 */
import { connect, type Socket } from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/store/api-keys.js';
import { importFiles } from '../../src/ingest/importer.js';
import { alertLine, companyLine, executionLine } from '../support/records.js';
import { startServeProcess, type ServeProcess } from '../support/cli-process.js';
import { openTestStore, type TestStore } from '../support/store-harness.js';
import { storeUnderTest } from '../support/stores.js';

const P = 'proj-load';
const id = (n: number): string => `${String(n).padStart(8, '0')}-3d1f-4a6b-9c8d-7e6f5a4b3c2d`;
// The full soak runs on SQLite; the PostgreSQL pass repeats it shorter to keep CI within its budget.
const SOAK_REQUESTS = Number(process.env.SOAK_REQUESTS ?? (storeUnderTest() === 'postgres' ? 50_000 : 200_000));

let ts: TestStore;
const keys: string[] = [];
const paths: string[] = [];
beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'crs-load-'));
  ts = await openTestStore(dir);
  const lines: string[] = [];
  for (let n = 0; n < 50; n++) {
    lines.push(companyLine(P, id(n), 'f1e2d3c4-b5a6-4978-8a9b-0c1d2e3f4a5b'), alertLine(P, id(1000 + n), id(n), 'e1e2d3c4-b5a6-4978-8a9b-0c1d2e3f4a5b'));
    for (let i = 0; i < 20; i++) lines.push(executionLine(P, id(n), i));
    paths.push(`/v1/companies/${id(n)}/details`, `/v1/alerts/${id(1000 + n)}`, `/v1/customers/${id(n)}/scenario-executions?limit=10`);
  }
  const input = join(dir, 'load.ndjson');
  writeFileSync(input, lines.join('\n') + '\n');
  await importFiles(ts.store, [input]);
  for (let i = 0; i < 3; i++) keys.push((await createApiKey(ts.store, { project: P })).key);
  await ts.store.close();
});
afterAll(async () => ts?.cleanup());

/** Resident memory of a process, in MB. */
function rssMb(pid: number): number {
  const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);
  return Math.round(kb / 1024);
}

function run(opts: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon(opts, (err, result) => (err ? reject(err) : resolve(result)));
  });
}

describe('under load', () => {
  let svc: ServeProcess;
  afterAll(() => void svc?.child.kill('SIGTERM'));

  it('answers 429 past a key’s budget while another key is still served', async () => {
    svc = await startServeProcess({ DATABASE_URL: ts.url, RATE_LIMIT_BURST: '100', RATE_LIMIT_PER_SECOND: '20' });
    const flood = run({ url: svc.url, connections: 32, amount: 5000, headers: { authorization: `Bearer ${keys[0]}` }, requests: [{ path: paths[0]! }] });
    // While the first key floods, the second key's requests are served.
    const probes: number[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await fetch(`${svc.url}${paths[i % paths.length]}`, { headers: { authorization: `Bearer ${keys[1]}` } });
      probes.push(res.status);
      await res.arrayBuffer();
    }
    const result = await flood;
    const codes = result.statusCodeStats as unknown as Record<string, { count: number }>;
    console.log(`flood: ${JSON.stringify(Object.fromEntries(Object.entries(codes).map(([k, v]) => [k, v.count])))}, p99 ${result.latency.p99} ms`);
    expect(codes['429']!.count).toBeGreaterThan(4000);
    expect(codes['200']!.count).toBeLessThanOrEqual(100 + 20 * Math.ceil(result.duration + 1));
    expect(result.errors).toBe(0);
    expect(probes.every((s) => s === 200)).toBe(true);
    svc.child.kill('SIGTERM');
    await svc.exited;
  });

  it(`keeps memory flat over ${SOAK_REQUESTS.toLocaleString('en')} requests`, async () => {
    svc = await startServeProcess({ DATABASE_URL: ts.url, RATE_LIMIT_BURST: '100000000', RATE_LIMIT_PER_SECOND: '100000000' });
    const requests = paths.map((path) => ({ path }));
    const headers = { authorization: `Bearer ${keys[2]}`, 'accept-encoding': 'gzip' };
    await run({ url: svc.url, connections: 16, amount: 20_000, headers, requests }); // warm up: JIT, caches, pools
    const before = rssMb(svc.child.pid!);
    const result = await run({ url: svc.url, connections: 32, amount: SOAK_REQUESTS, headers, requests });
    const after = rssMb(svc.child.pid!);
    console.log(`soak: ${result.requests.total} requests at ${Math.round(result.requests.average)}/s, RSS ${before} MB before, ${after} MB after`);
    expect(result.non2xx).toBe(0);
    expect(result.errors).toBe(0);
    expect(after).toBeLessThan(before * 1.5 + 40);
    svc.child.kill('SIGTERM');
    await svc.exited;
  }, 300_000);

  it('serves other clients while 100 slow clients dribble their headers', async () => {
    svc = await startServeProcess({ DATABASE_URL: ts.url, HEADERS_TIMEOUT_MS: '2000', REQUEST_TIMEOUT_MS: '3000' });
    const { hostname, port } = new URL(svc.url);
    const slow: Socket[] = [];
    for (let i = 0; i < 100; i++) {
      // From another loopback address: the other clients' own, below, holds no more than they do.
      const s = connect({ host: hostname, port: Number(port), localAddress: '127.0.0.2' });
      s.on('error', () => {});
      s.write(`GET ${paths[0]} HTTP/1.1\r\nHost: x\r\n`);
      slow.push(s);
    }
    const drip = setInterval(() => slow.forEach((s) => !s.destroyed && s.write('X-Slow: 1\r\n')), 500);
    try {
      for (let i = 0; i < 30; i++) {
        const res = await fetch(`${svc.url}${paths[i % paths.length]}`, { headers: { authorization: `Bearer ${keys[1]}` }, signal: AbortSignal.timeout(5000) });
        expect(res.status).toBe(200);
        await res.arrayBuffer();
      }
      // The server drops the dribblers once their header time is up.
      await new Promise((r) => setTimeout(r, 3500));
      expect(slow.filter((s) => !s.destroyed && !s.readableEnded).length).toBeLessThan(100);
    } finally {
      clearInterval(drip);
      slow.forEach((s) => s.destroy());
      svc.child.kill('SIGTERM');
      await svc.exited;
    }
  });
});
