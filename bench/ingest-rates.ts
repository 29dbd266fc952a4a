/**
 * `npm run bench:ingest`: records/s of the three ways in, on each store, in one run, over the same
 * demo records: the file import (in this process, one worker-less pass), HTTP push (POST /records
 * to a `serve` process, several clients at once) and the stream consumer (a `consume` process
 * draining a JetStream stream the records were published to beforehand). Then the end-to-end
 * latency of the stream: one envelope published at a time, read back through GET until the
 * service answers its new version. Results go to bench/results/ by hand (see README.md).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { connect } from 'nats';
import pg from 'pg';
import { createClient } from '../src/client/client.js';
import { generateDemo } from '../src/demo/index.js';
import { importFiles } from '../src/ingest/importer.js';
import { freePort } from './service-process.js';
import { createApiKey } from '../src/store/api-keys.js';
import { openStore } from '../src/store/open-store.js';
import { median } from './summary.js';

const { values } = parseArgs({
  options: {
    stores: { type: 'string', default: 'sqlite,postgres' },
    companies: { type: 'string', default: '400' },
    clients: { type: 'string', default: '4' },
    chunk: { type: 'string', default: '500' },
    samples: { type: 'string', default: '200' },
    'pg-url': { type: 'string', default: process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test' },
    'nats-url': { type: 'string', default: process.env.BENCH_NATS_URL ?? 'nats://127.0.0.1:4222' },
  },
  strict: true,
});
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = ['--import', 'tsx', 'src/cli/main.ts'];
const PROJECT = 'proj-bench-ingest';
const log = (line: string): void => void process.stderr.write(`${line}\n`);
const dir = mkdtempSync(join(tmpdir(), 'crs-bench-ingest-'));
const schemas: string[] = [];

async function pgQuery(sql: string): Promise<void> {
  const c = new pg.Client({ connectionString: values['pg-url'] });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

/** A fresh, empty store URL of `kind`. */
async function freshStore(kind: string, name: string): Promise<string> {
  if (kind === 'sqlite') return join(dir, `${name}.db`);
  const schema = `bench_ingest_${name}_${process.pid}`;
  await pgQuery(`CREATE SCHEMA ${schema}`);
  schemas.push(schema);
  const url = values['pg-url'];
  return `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
}

const children: ChildProcess[] = [];


function child(args: string[], env: Record<string, string>): { proc: ChildProcess; output: () => string } {
  const proc = spawn(process.execPath, [...CLI, ...args], { cwd: ROOT, env: { ...process.env, LOG_LEVEL: 'info', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(proc);
  let out = '';
  proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  return { proc, output: () => out };
}

async function until(what: string, ok: () => Promise<boolean> | boolean, timeoutMs: number, everyMs = 20): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

async function stopChild(c: { proc: ChildProcess }): Promise<void> {
  if (c.proc.exitCode !== null) return;
  const done = new Promise((r) => c.proc.once('exit', r));
  c.proc.kill('SIGTERM');
  await done;
}

async function serve(db: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const c = child(['serve'], { DATABASE_URL: db, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn', FILES_DIR: join(dir, 'files'), RATE_LIMIT_BURST: '1000000000', RATE_LIMIT_PER_SECOND: '1000000000' });
  const url = `http://127.0.0.1:${port}`;
  await until('serve', () => fetch(`${url}/healthz`).then((r) => r.ok, () => false), 120_000, 100);
  return { url, stop: () => stopChild(c) };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const lines = [...generateDemo({ seed: 7, projects: [PROJECT], companies: Number(values.companies), individuals: 0, heavyCustomerExecutions: 0, largeAlertRatio: 0, alerts: Number(values.companies) })];
const file = join(dir, 'records.ndjson');
writeFileSync(file, lines.join('\n') + '\n');
log(`${lines.length} demo records, ${(lines.reduce((n, l) => n + l.length + 1, 0) / 1e6).toFixed(1)} MB`);

const rows: string[] = [];
const nc = await connect({ servers: values['nats-url'] });
const jsm = await nc.jetstreamManager();
const js = nc.jetstream();
try {
  for (const kind of values.stores.split(',')) {
    // File import, in this process, as `compliance-read import --workers 0` runs it.
    const importDb = await freshStore(kind, 'import');
    const store = await openStore(importDb, { bulkWrites: true });
    let t = performance.now();
    const summary = await importFiles(store, [file]);
    const importRate = summary.stored / ((performance.now() - t) / 1000);
    await store.close();
    log(`${kind} import: ${importRate.toFixed(0)} records/s`);

    // HTTP push: clients each push their share in chunks, all at once.
    const pushDb = await freshStore(kind, 'push');
    const pushStore = await openStore(pushDb);
    const key = (await createApiKey(pushStore, { project: PROJECT, scopes: ['records:write', 'companies:read'] })).key;
    await pushStore.close();
    const svc = await serve(pushDb);
    const clients = Number(values.clients);
    const chunk = Number(values.chunk);
    t = performance.now();
    const stored = await Promise.all(
      Array.from({ length: clients }, async (_, c) => {
        const client = createClient({ baseUrl: `${svc.url}/v1`, apiKey: key });
        const mine = lines.slice(Math.floor((lines.length * c) / clients), Math.floor((lines.length * (c + 1)) / clients));
        let n = 0;
        for (let i = 0; i < mine.length; i += chunk) n += (await client.pushRecords(mine.slice(i, i + chunk).join('\n'))).stored;
        return n;
      }),
    );
    const pushRate = stored.reduce((a, b) => a + b, 0) / ((performance.now() - t) / 1000);
    await svc.stop();
    log(`${kind} push: ${pushRate.toFixed(0)} records/s`);

    // Stream: published first, then drained by one consumer, timed from its start-up line to an empty backlog.
    const consumeDb = await freshStore(kind, 'consume');
    const stream = `BENCH_${kind.toUpperCase()}_${process.pid}`;
    const subject = `bench.${kind}.${process.pid}`;
    await jsm.streams.add({ name: stream, subjects: [`${subject}.>`] });
    try {
      for (let i = 0; i < lines.length; i += 1000) await Promise.all(lines.slice(i, i + 1000).map((l) => js.publish(`${subject}.r`, Buffer.from(l))));
      const env = { DATABASE_URL: consumeDb, NATS_URL: values['nats-url'], NATS_STREAM: stream, NATS_SUBJECT: `${subject}.>`, NATS_DURABLE: 'bench', NATS_DEAD_LETTER_SUBJECT: `${subject}-dead` };
      const consumer = child(['consume'], env);
      await until('the consumer to start', () => consumer.output().includes('"consuming"'), 60_000);
      t = performance.now();
      await until(
        'the stream to drain',
        async () => {
          const info = await jsm.consumers.info(stream, 'bench');
          return info.num_pending === 0 && info.num_ack_pending === 0;
        },
        600_000,
      );
      const consumeRate = lines.length / ((performance.now() - t) / 1000);
      log(`${kind} consume: ${consumeRate.toFixed(0)} records/s`);

      // Latency: one company updated at a time, published, then read through GET until the new version answers.
      const consumeStore = await openStore(consumeDb);
      const readKey = (await createApiKey(consumeStore, { project: PROJECT, scopes: ['companies:read'] })).key;
      await consumeStore.close();
      const reader = await serve(consumeDb);
      const company = lines.map((l) => JSON.parse(l) as { kind: string; record: Record<string, unknown> }).find((e) => e.kind === 'customer' && e.record.type === 'Company')!;
      const id = company.record.id as string;
      const latencies: number[] = [];
      for (let s = 0; s < Number(values.samples); s++) {
        const updatedAt = new Date(Date.UTC(2030, 0, 1) + s * 1000).toISOString();
        company.record.updatedAt = updatedAt;
        const started = performance.now();
        await js.publish(`${subject}.r`, Buffer.from(JSON.stringify(company)));
        await until(
          'the new version to be readable',
          async () => {
            const r = await fetch(`${reader.url}/v1/companies/${id}/details`, { headers: { authorization: `Bearer ${readKey}` } });
            return r.ok && ((await r.json()) as { updatedAt?: string }).updatedAt === updatedAt;
          },
          30_000,
          2,
        );
        latencies.push(performance.now() - started);
      }
      latencies.sort((a, b) => a - b);
      log(`${kind} publish→readable: p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms`);
      await reader.stop();
      await stopChild(consumer);
      rows.push(
        `| ${kind} | ${lines.length} | ${importRate.toFixed(0)} | ${pushRate.toFixed(0)} | ${consumeRate.toFixed(0)} | ${percentile(latencies, 50).toFixed(1)} | ${percentile(latencies, 99).toFixed(1)} | ${median(latencies).toFixed(1)} |`,
      );
    } finally {
      await jsm.streams.delete(stream).catch(() => undefined);
    }
  }
} finally {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await nc.close();
  for (const s of schemas) await pgQuery(`DROP SCHEMA IF EXISTS ${s} CASCADE`);
  rmSync(dir, { recursive: true, force: true });
}
process.stdout.write(
  ['| store | records | file import records/s | HTTP push records/s | stream consume records/s | publish→readable p50 ms | p99 ms | median ms |', '|---|---|---|---|---|---|---|---|', ...rows].join('\n') + '\n',
);
