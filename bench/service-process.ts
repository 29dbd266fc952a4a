/** Starts `serve` as a child process and measures start-up: spawn to first successful /v1 answer. */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import type { ServiceBuild } from './build-service.js';
import { cliEnv } from './cli-runner.js';
import { get } from './http-get.js';
import type { BenchStore } from './stores.js';

export interface RunningService {
  base: string;
  pid: number;
  startupMs: number;
  /** SIGTERM, then wait for exit (lets --cpu-prof write its profile). */
  stop(): Promise<void>;
  /** The last few KB the service wrote to stderr (it logs at warn). */
  stderrTail(): string;
}

/** A free TCP port on 127.0.0.1 (closed again before the child binds it). */
export async function freePort(): Promise<number> {
  const srv = createServer();
  srv.listen(0, '127.0.0.1');
  await once(srv, 'listening');
  const port = (srv.address() as { port: number }).port;
  srv.close();
  await once(srv, 'close');
  return port;
}

/** Waits until probePath answers 200 with this key, polling every few ms; rejects on exit or timeout. */
async function awaitFirstAnswer(child: ChildProcess, base: string, probePath: string, key: string, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  let exited = false;
  child.once('exit', () => (exited = true));
  for (;;) {
    if (exited) throw new Error('the service exited during start-up');
    try {
      // The first answer may take seconds on a loaded machine: the probe waits up to the deadline.
      const r = await get(base, probePath, { authorization: `Bearer ${key}` }, Math.max(1, deadline - performance.now()));
      if (r.status === 200) return;
      throw new Error(`start-up probe ${probePath} answered ${r.status}: ${r.body.toString().slice(0, 300)}`);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ECONNREFUSED' && code !== 'ECONNRESET') throw err;
    }
    if (performance.now() > deadline) throw new Error(`the service did not answer within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Spawns the service on a free port with rate limits out of the way and logs at warn. */
export async function startService(
  build: ServiceBuild,
  store: BenchStore,
  probe: { path: string; key: string },
  extraNodeArgs: string[] = [],
  extraServeArgs: string[] = [],
  /** Where the service runs: a command prefix (`ip netns exec NS`) and the address it listens on there. */
  place: { prefix: string[]; host: string; dbUrl: string } | undefined = undefined,
): Promise<RunningService> {
  const port = await freePort();
  const host = place?.host ?? '127.0.0.1';
  const base = `http://${host}:${port}`;
  // The per-key token bucket would otherwise answer 429 within a second of load.
  // A short shutdown grace: the load has stopped by the time the bench stops the service.
  const args = ['serve', '--db', place?.dbUrl ?? store.url, '--port', String(port), '--host', host, '--log-level', 'warn', '--rate-limit-burst', '1000000000', '--rate-limit-per-second', '1000000000', '--shutdown-grace', '1000', '--max-connections-per-address', '1024', ...extraServeArgs];
  const started = performance.now();
  const command = [...(place?.prefix ?? []), process.execPath, ...extraNodeArgs, ...build.nodeArgs, ...args];
  // `ip netns exec` execs its command: the child's pid is the service's.
  const child = spawn(command[0]!, command.slice(1), { cwd: store.cwd, stdio: ['ignore', 'ignore', 'pipe'], env: cliEnv() });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr = (stderr + d).slice(-4000)));
  try {
    await awaitFirstAnswer(child, base, probe.path, probe.key, 60_000);
  } catch (err) {
    child.kill('SIGKILL');
    throw new Error(`${store.kind} service: ${(err as Error).message}\n${stderr}`);
  }
  const startupMs = performance.now() - started;
  return {
    base,
    pid: child.pid!,
    startupMs,
    stderrTail: () => stderr,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      // A service that has not exited 5 s after SIGTERM is a defect worth seeing in the output.
      const timer = setTimeout(() => {
        process.stderr.write(`  ${store.kind} service still running 5 s after SIGTERM: SIGKILL (a --cpu-prof profile is lost)\n`);
        child.kill('SIGKILL');
      }, 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
