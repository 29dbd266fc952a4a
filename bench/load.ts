/** One measurement: wrk, as a child process, against one target with a random request each time. */
import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDebianTool } from './debian-tool.js';
import { childrenCpuMicros } from './process-cpu.js';
import type { RequestSpec } from './scenarios.js';

const SCRIPT = fileURLToPath(new URL('./wrk.lua', import.meta.url));

export interface LoadResult {
  rps: number;
  /** Milliseconds, from wrk's latency histogram (recorded in µs). */
  p50: number;
  p99: number;
  responses: number;
  /** Wire bytes per response, headers included (wrk's byte count ÷ responses). */
  bytesPerResponse: number;
  /** Answers with another status than expected, plus socket errors and timeouts: any makes the measurement invalid. */
  unexpected: number;
  /** CPU of the load generator (wrk) per answer, in µs. */
  clientCpuPerResponse: number;
}

/** What the Lua script's done() prints. */
interface WrkResult {
  durationUs: number;
  requests: number;
  bytes: number;
  connectErrors: number;
  readErrors: number;
  writeErrors: number;
  timeouts: number;
  statusOver399: number;
  unexpectedStatus: number;
  p50Us: number;
  p99Us: number;
}

/** Debian's wrk, installed when missing; returns its version line. */
export function ensureWrk(log: (line: string) => void): string {
  const wrk = ensureDebianTool('wrk', 'wrk', log);
  // `wrk --version` prints its version and usage, then exits 1.
  return spawnSync(wrk, ['--version'], { encoding: 'utf8' }).stdout.split('\n')[0]!.trim();
}

/** How the load generator runs: its threads, and where its request list files go. */
export interface Generator {
  /** wrk threads; one keeps the generator to one core of the two, as the in-process generator was. */
  threads: number;
  dir: string;
}

const listFiles = new WeakMap<RequestSpec[], string>();
let listCount = 0;

/** The list as wrk.lua reads it, written once per list (lists are cached, so identity is stable). */
function listFile(gen: Generator, requests: RequestSpec[]): string {
  let file = listFiles.get(requests);
  if (file === undefined) {
    for (const r of requests) {
      for (const [name, value] of Object.entries(r.headers)) if (/[\t\n]/.test(name + value)) throw new Error(`header ${name} cannot go in a wrk list`);
    }
    file = join(gen.dir, `wrk-list-${listCount++}.txt`);
    writeFileSync(file, requests.map((r) => [r.path, ...Object.entries(r.headers).map(([n, v]) => `${n}: ${v}`)].join('\t')).join('\n') + '\n');
    listFiles.set(requests, file);
  }
  return file;
}

/** Drives `base` with `connections` for `seconds` (whole seconds: wrk's unit), each request drawn at random from `requests`. */
export async function runLoad(gen: Generator, base: string, requests: RequestSpec[], connections: number, seconds: number, expect: number): Promise<LoadResult> {
  if (requests.length === 0) throw new Error('no requests to send');
  const args = ['-t', String(Math.min(gen.threads, connections)), '-c', String(connections), '-d', `${Math.max(1, Math.round(seconds))}s`, '--timeout', '30s', '-s', SCRIPT, base, '--', listFile(gen, requests), String(expect)];
  const cpuBefore = childrenCpuMicros();
  const child = spawn('wrk', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  });
  // wrk has been waited for by now, so its CPU is in this process's children's times.
  const clientCpu = childrenCpuMicros() - cpuBefore;
  const line = out.split('\n').find((l) => l.startsWith('WRK_RESULT '));
  if (code !== 0 || line === undefined) throw new Error(`wrk ${args.join(' ')} exited with ${code}: ${(err || out).trim()}`);
  const w = JSON.parse(line.slice('WRK_RESULT '.length)) as WrkResult;
  const n = w.requests;
  const wrongStatus = expect >= 300 ? w.unexpectedStatus : w.statusOver399;
  return {
    rps: n / (w.durationUs / 1e6),
    p50: w.p50Us / 1000,
    p99: w.p99Us / 1000,
    responses: n,
    bytesPerResponse: n === 0 ? 0 : w.bytes / n,
    unexpected: wrongStatus + w.connectErrors + w.readErrors + w.writeErrors + w.timeouts,
    clientCpuPerResponse: n > 0 ? clientCpu / n : NaN,
  };
}
