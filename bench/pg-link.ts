/**
 * `--pg-link`: PostgreSQL one network hop away. A network namespace holds a second PostgreSQL
 * service; it reaches the database over a veth pair, through a forwarder in the host namespace
 * (PostgreSQL itself may listen on loopback only) that holds each chunk for half the round trip
 * in each direction: netem would, but this machine's kernel has no sch_netem
 * (CONFIG_NET_SCH_NETEM unset), so the delay is `delay-forwarder.c`'s, with a timerfd's µs
 * precision. The load generator reaches that service over a second veth pair without delay, so
 * the delay lies only between service and database.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDebianTool } from './debian-tool.js';

/** A namespace with its two links, and the forwarder to PostgreSQL. */
export interface PgLink {
  /** Prefix of a command that runs in the namespace. */
  prefix: string[];
  /** The service's address in the namespace (reached without delay). */
  serviceHost: string;
  /** Rewrites a PostgreSQL URL on 127.0.0.1 to cross the delayed link. */
  databaseUrl(url: string): string;
  /** The measured round trip of a `SELECT 1` across the link less the same on loopback, ms. */
  rttMs?: number;
  /** The forwarder's process (its CPU is the emulation's, not the service's). */
  forwarderPid(): number | undefined;
  /** Removes the namespace, its links and the forwarder. */
  close(): Promise<void>;
}

function run(cmd: string, args: string[]): string {
  const r = spawnSync(cmd, args, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed: ${r.stderr || r.error?.message || `exit ${r.status}`}`);
  return r.stdout;
}

/**
 * Sets up the namespace. Two /30s of 10.231.0.0/16 picked from the pid (the bench is the only
 * user of the range): db link .1 (host, forwarder) – .2, service link .5 (host) – .6 (service).
 */
export async function openPgLink(oneWayDelayUs: number, pgPort: number, cacheDir: string, log: (line: string) => void): Promise<PgLink> {
  const forwarderBin = buildForwarder(cacheDir, log);
  const n = process.pid % 10_000;
  const octet = (process.pid % 250) + 1;
  const ns = `ccrbench${n}`;
  const [dbHost, dbNs, httpHost, httpNs] = [`cdbh${n}`, `cdbn${n}`, `chth${n}`, `chtn${n}`];
  const net = (last: number): string => `10.231.${octet}.${last}`;
  const inNs = (...args: string[]): string => run('ip', ['netns', 'exec', ns, ...args]);
  let forwarder: ChildProcess | undefined;
  const close = async (): Promise<void> => {
    if (forwarder !== undefined && forwarder.exitCode === null) {
      const exited = once(forwarder, 'exit');
      forwarder.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 2000))]);
    }
    // Deleting the namespace deletes its veth ends, and with them their host-side peers.
    spawnSync('ip', ['netns', 'del', ns]);
  };
  try {
    run('ip', ['netns', 'add', ns]);
    inNs('ip', 'link', 'set', 'lo', 'up');
    // The HTTP link gets veth's largest MTU (loopback's is 65536), so the local and the far service differ only in their database link (MTU 1500, as a LAN's).
    for (const [host, inside, hostAddr, nsAddr, mtu] of [
      [dbHost, dbNs, net(1), net(2), '1500'],
      [httpHost, httpNs, net(5), net(6), '65535'],
    ] as const) {
      run('ip', ['link', 'add', host, 'mtu', mtu, 'type', 'veth', 'peer', 'name', inside, 'mtu', mtu]);
      run('ip', ['link', 'set', inside, 'netns', ns]);
      run('ip', ['addr', 'add', `${hostAddr}/30`, 'dev', host]);
      run('ip', ['link', 'set', host, 'up']);
      inNs('ip', 'addr', 'add', `${nsAddr}/30`, 'dev', inside);
      inNs('ip', 'link', 'set', inside, 'up');
    }
    // A wire does not wait for a CPU: real-time priority keeps the other processes from delaying a chunk past its time.
    const fifo = spawnSync('chrt', ['-f', '20', 'true']).status === 0;
    const forwarderArgs = [net(1), String(pgPort), '127.0.0.1', String(pgPort), String(oneWayDelayUs)];
    forwarder = fifo ? spawn('chrt', ['-f', '20', forwarderBin, ...forwarderArgs], { stdio: ['ignore', 'ignore', 'inherit'] }) : spawn(forwarderBin, forwarderArgs, { stdio: ['ignore', 'ignore', 'inherit'] });
    if (!fifo) log('pg link: chrt -f is refused here, so the forwarder runs at normal priority and may add the scheduler\'s delays to the link');
    await waitForListener(net(1), pgPort);
    log(`pg link: namespace ${ns}, service at ${net(6)}, PostgreSQL via ${net(1)}:${pgPort} (delay-forwarder to 127.0.0.1, ${oneWayDelayUs} µs each way${fifo ? ', SCHED_FIFO' : ''})`);
    return {
      prefix: ['ip', 'netns', 'exec', ns],
      serviceHost: net(6),
      forwarderPid: () => forwarder?.pid,
      databaseUrl: (url) => {
        const u = new URL(url);
        u.hostname = net(1);
        return u.toString();
      },
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}

/** Waits (at most 5 s) until something accepts connections at host:port. */
async function waitForListener(host: string, port: number): Promise<void> {
  const { connect } = await import('node:net');
  for (let i = 0; i < 100; i++) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = connect({ host, port }, () => (s.destroy(), resolve(true)));
      s.on('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`the forwarder at ${host}:${port} did not start listening`);
}

/** Compiles delay-forwarder.c with Debian's gcc into the bench cache, once per source. */
function buildForwarder(cacheDir: string, log: (line: string) => void): string {
  const source = fileURLToPath(new URL('./delay-forwarder.c', import.meta.url));
  const hash = createHash('sha256').update(readFileSync(source)).digest('hex').slice(0, 12);
  const bin = join(cacheDir, `delay-forwarder-${hash}`);
  if (existsSync(bin)) return bin;
  const gcc = ensureDebianTool('gcc', 'gcc', log);
  mkdirSync(cacheDir, { recursive: true });
  run(gcc, ['-O2', '-Wall', '-o', bin, source]);
  return bin;
}

/** Median ms of 200 `SELECT 1` on one connection, run by a node child (in the namespace when `prefix` says so). */
function selectOneMs(url: string, prefix: string[]): number {
  const script = `import pg from 'pg';
const c = new pg.Client({ connectionString: process.argv[1] });
await c.connect();
const t = [];
for (let i = 0; i < 220; i++) { const s = performance.now(); await c.query('SELECT 1'); if (i >= 20) t.push(performance.now() - s); }
await c.end();
t.sort((a, b) => a - b);
process.stdout.write(String(t[t.length >> 1]));`;
  const command = [...prefix, process.execPath, '--input-type=module', '-e', script, url];
  const r = spawnSync(command[0]!, command.slice(1), { encoding: 'utf8', cwd: fileURLToPath(new URL('..', import.meta.url)), timeout: 60_000 });
  if (r.status !== 0) throw new Error(`measuring SELECT 1 failed: ${r.stderr}`);
  return Number(r.stdout);
}

/** What a round trip to PostgreSQL costs across the link more than on loopback, ms (medians). */
export async function measureLinkRtt(localUrl: string, linkUrl: string, prefix: string[]): Promise<number> {
  return selectOneMs(linkUrl, prefix) - selectOneMs(localUrl, []);
}
