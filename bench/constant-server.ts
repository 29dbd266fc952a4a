/**
 * The calibration target: HAProxy (Debian's package) answering every request with the same small
 * body from its own `http-request return`. Native and cheap per answer, so the generator's own
 * limit shows rather than a second node process's on the same cores.
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { RunningCeiling } from './ceiling.js';
import { ensureDebianTool } from './debian-tool.js';
import { freePort } from './service-process.js';

/** HAProxy's configuration: one thread, the service's keep-alive budget, a fixed JSON answer. */
function configText(port: number): string {
  return [
    'global',
    '  nbthread 1',
    '  maxconn 4096',
    'defaults',
    '  mode http',
    '  timeout client 30s',
    '  timeout connect 5s',
    '  timeout server 30s',
    '  timeout http-keep-alive 5s',
    'frontend constant',
    `  bind 127.0.0.1:${port}`,
    '  http-request return status 200 content-type application/json string "{\\"ok\\":true}"',
    '',
  ].join('\n');
}

/** True once something accepts connections on the port. */
function accepting(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

/** HAProxy's version line, installing Debian's package when it is missing. */
export function ensureHaproxy(log: (line: string) => void): string {
  const haproxy = ensureDebianTool('haproxy', 'haproxy', log);
  return spawnSync(haproxy, ['-v'], { encoding: 'utf8' }).stdout.split('\n')[0]!.trim();
}

/** Starts HAProxy in the foreground with its configuration in `dir`, and waits until it accepts. */
export async function startConstant(dir: string): Promise<RunningCeiling> {
  const port = await freePort();
  const file = join(dir, 'constant-haproxy.cfg');
  writeFileSync(file, configText(port), { mode: 0o600 });
  const child = spawn('haproxy', ['-db', '-f', file], { stdio: ['ignore', 'ignore', 'inherit'] });
  let exited = false;
  child.once('exit', () => (exited = true));
  // Bounded: HAProxy binds within milliseconds, or has failed.
  for (let i = 0; i < 100 && !(await accepting(port)); i++) {
    if (exited) throw new Error(`haproxy -f ${file} exited with ${child.exitCode}`);
    await sleep(50);
  }
  if (!(await accepting(port))) throw new Error(`haproxy did not accept on 127.0.0.1:${port} within 5 s`);
  return {
    base: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const gone = once(child, 'exit');
      child.kill('SIGTERM');
      await gone;
    },
  };
}
