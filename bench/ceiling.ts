/** Starts the ceiling server as its own process, as the service is. */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { freePort } from './service-process.js';

export interface RunningCeiling {
  base: string;
  pid: number;
  stop(): Promise<void>;
}

/** Spawns ceiling-server.ts on a free port and waits for its "ready" line. */
export function startCeiling(dataFile: string, extraNodeArgs: string[] = []): Promise<RunningCeiling> {
  return startServer('./ceiling-server.ts', [dataFile], extraNodeArgs);
}

async function startServer(file: string, args: string[], extraNodeArgs: string[]): Promise<RunningCeiling> {
  const port = await freePort();
  const script = fileURLToPath(new URL(file, import.meta.url));
  // tsx only transpiles at load; the request path then runs as plain JIT-compiled JS.
  const child = spawn(process.execPath, [...extraNodeArgs, '--import', 'tsx', script, ...args, String(port)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${file} exited with ${code}`)));
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      if (out.includes('ready')) resolve();
    });
  });
  child.removeAllListeners('exit');
  return {
    base: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}
