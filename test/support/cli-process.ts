/** The real `compliance-read` CLI in child processes: one-shot commands and running services. */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The command line from its sources; a built one is `[path to main.js]`. */
const MAIN = ['--import', 'tsx', 'src/cli/main.ts'];

/** A port nothing listens on right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** Runs one CLI command to completion (from the sources unless `main` says otherwise); throws with its stderr when it fails. */
export function runCli(args: string[], env: Record<string, string> = {}, main: readonly string[] = MAIN): string {
  const r = spawnSync(process.execPath, [...main, ...args], { cwd: ROOT, env: { ...process.env, ...env }, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`compliance-read ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return r.stdout;
}

/** Creates an API key through the CLI and returns the key (printed as the last line). */
export function cliKey(db: string, project: string): string {
  return runCli(['keys', 'create', '--project', project, '--db', db]).trim().split('\n').at(-1)!;
}

/** A `serve` child process. */
export interface ServeProcess {
  url: string;
  child: ChildProcess;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
}

/** Starts `compliance-read serve` (from the sources unless `main` says otherwise) on a free port with `env` and waits until /healthz answers. */
export async function startServeProcess(env: Record<string, string>, timeoutMs = 30_000, main: readonly string[] = MAIN): Promise<ServeProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [...main, 'serve'], {
    cwd: ROOT,
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`serve exited ${child.exitCode}: ${out}`);
    const ok = await fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`serve did not answer within ${timeoutMs} ms: ${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url, child, output: () => out, exited };
}
