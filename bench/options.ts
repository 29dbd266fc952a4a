/** Command-line options of `npm run bench` and their per-scale defaults. */
import { parseArgs } from 'node:util';

export type Scale = 'small' | 'large';
export type StoreKind = 'sqlite' | 'postgres';

export interface BenchOptions {
  scale: Scale;
  stores: StoreKind[];
  connections: number[];
  /** Seconds per measurement. */
  duration: number;
  reps: number;
  /** Base PostgreSQL URL; the bench creates (and drops) its own schema in it. */
  pgUrl: string;
  /** Only these scenarios (all when empty). */
  scenarios: string[];
  /** Write a V8 CPU profile of each service process (node --cpu-prof) and summarise it. */
  cpuProf: boolean;
  /** Keep the imported stores and the run directory for inspection. */
  keep: boolean;
  /** Also serve each store with ACCESS_LOG=off, measured in the same rotation, to price the access log. */
  accessLogAb: boolean;
  /** Also serve each store with the list page cache and kept answers off, measured in the same rotation: what a page or record costs when it is read and rendered. */
  cacheAb: boolean;
  /** Threads of the load generator (wrk). */
  wrkThreads: number;
  /** Also serve PostgreSQL from a network namespace whose link to the database has this round trip (ms); 0: off. */
  pgLinkMs: number;
  /** Extra arguments of every PostgreSQL service (e.g. `--pg-pool-size 20`), split on spaces. */
  pgServeArgs: string[];
  /** Also serve each store by a node started with these flags (rows `<store>-node`), in the same rotation; empty: off. */
  nodeAb: string[];
  /** Add the run to bench/results/history.ndjson and redraw the scale's history chart. */
  history: boolean;
}

// Small is 144 runs (16 scenarios × 3 reps × 3 targets) and must stay a few minutes in CI, so it
// uses wrk's shortest window and 32 connections only; large can afford both counts.
const DEFAULT_DURATION: Record<Scale, number> = { small: 1, large: 5 };
const DEFAULT_CONNECTIONS: Record<Scale, string> = { small: '32', large: '32,128' };

export const USAGE = `usage: npm run bench -- [--scale small|large] [--stores sqlite,postgres] [--connections 32,128]
                      [--duration S] [--reps N] [--scenarios a,b] [--pg-url URL] [--cpu-prof] [--keep]
                      [--access-log-ab] [--cache-ab] [--wrk-threads N] [--pg-link MS] [--pg-serve-args='...']
                      [--node-ab='...'] [--no-history]`;

function list(raw: string): string[] {
  return raw.split(',').map((s) => s.trim()).filter((s) => s !== '');
}

function positive(name: string, raw: string): number {
  const n = Number(raw);
  if (!(n > 0) || !Number.isFinite(n)) throw new Error(`--${name} must be a positive number, got ${raw}`);
  return n;
}

/** wrk's -d takes whole seconds. */
function wholeSeconds(raw: string): number {
  const n = positive('duration', raw);
  if (!Number.isInteger(n)) throw new Error(`--duration is in whole seconds (wrk's unit), got ${raw}`);
  return n;
}

/** Parses argv (without node and script) into options, applying the scale's defaults. */
export function parseOptions(argv: string[]): BenchOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      scale: { type: 'string', default: 'small' },
      stores: { type: 'string', default: 'sqlite,postgres' },
      connections: { type: 'string' },
      duration: { type: 'string' },
      reps: { type: 'string', default: '3' },
      scenarios: { type: 'string', default: '' },
      'pg-url': { type: 'string', default: process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test' },
      'cpu-prof': { type: 'boolean', default: false },
      keep: { type: 'boolean', default: false },
      'access-log-ab': { type: 'boolean', default: false },
      'cache-ab': { type: 'boolean', default: false },
      'wrk-threads': { type: 'string', default: '1' },
      'pg-link': { type: 'string' },
      'pg-serve-args': { type: 'string', default: '' },
      'no-history': { type: 'boolean', default: false },
      'node-ab': { type: 'string', default: '' },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  const scale = values.scale;
  if (scale !== 'small' && scale !== 'large') throw new Error(`--scale must be small or large, got ${scale}`);
  const stores = list(values.stores);
  for (const s of stores) if (s !== 'sqlite' && s !== 'postgres') throw new Error(`--stores takes sqlite and/or postgres, got ${s}`);
  if (stores.length === 0) throw new Error('--stores needs at least one store');
  const connections = list(values.connections ?? DEFAULT_CONNECTIONS[scale]).map((c) => Math.round(positive('connections', c)));
  const reps = Math.round(positive('reps', values.reps));
  return {
    scale,
    stores: stores as StoreKind[],
    connections,
    duration: values.duration === undefined ? DEFAULT_DURATION[scale] : wholeSeconds(values.duration),
    reps,
    pgUrl: values['pg-url'],
    scenarios: list(values.scenarios),
    cpuProf: values['cpu-prof'],
    keep: values.keep,
    accessLogAb: values['access-log-ab'],
    cacheAb: values['cache-ab'],
    wrkThreads: Math.round(positive('wrk-threads', values['wrk-threads'])),
    pgLinkMs: values['pg-link'] === undefined ? 0 : positive('pg-link', values['pg-link']),
    pgServeArgs: values['pg-serve-args'].split(' ').filter((a) => a !== ''),
    nodeAb: values['node-ab'].split(' ').filter((a) => a !== ''),
    history: !values['no-history'],
  };
}
