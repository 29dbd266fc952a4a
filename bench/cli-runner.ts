/** Runs the service's command line as a child process, timing it and tracking its peak memory. */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import type { ServiceBuild } from './build-service.js';
import { descendantsOf } from '../test/support/processes.js';
import { residentTogetherKb } from './process-tree.js';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  wallMs: number;
  /** Peak resident set size of the command's largest process in MB (VmHWM), when it could be read. */
  peakRssMb: number | undefined;
  /** Peak of the command's processes together (a child it starts too), sampled: their private pages and the shared ones once (process-tree.ts); with `measure` on Linux. */
  peakTogetherMb: number | undefined;
}

// Reading every process's smaps_rollup walks its page tables: a few times a second is enough for a peak held for seconds.
const TOGETHER_EVERY_MS = 250;

const TIME = '/usr/bin/time';

function readHwmKb(pid: number): number | undefined {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** Runs `node <build> ...args`; with `measure`, under GNU time -v (or polling /proc when absent). */
export function runCli(build: ServiceBuild, args: string[], opts: { cwd: string; measure?: boolean; onStderr?: (chunk: string) => void }): Promise<CliResult> {
  const useTime = opts.measure === true && existsSync(TIME);
  // GNU time reports the exact high-water mark after exit; polling /proc could miss a final spike.
  const [cmd, argv] = useTime ? [TIME, ['-v', process.execPath, ...build.nodeArgs, ...args]] : [process.execPath, [...build.nodeArgs, ...args]];
  const started = performance.now();
  const child = spawn(cmd, argv, { cwd: opts.cwd, stdio: ['ignore', 'pipe', 'pipe'], env: cliEnv() });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
    opts.onStderr?.(d);
  });
  let polledKb: number | undefined;
  const poll = opts.measure === true && !useTime ? setInterval(() => (polledKb = readHwmKb(child.pid!) ?? polledKb), 100) : undefined;
  let togetherKb: number | undefined;
  // Under GNU time the command's processes are its descendants; time itself is left out.
  const together =
    opts.measure === true && process.platform === 'linux'
      ? setInterval(() => {
          const kb = residentTogetherKb(useTime ? descendantsOf(child.pid!) : [child.pid!, ...descendantsOf(child.pid!)]);
          togetherKb = Math.max(togetherKb ?? 0, kb);
        }, TOGETHER_EVERY_MS)
      : undefined;
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      if (poll) clearInterval(poll);
      if (together) clearInterval(together);
      const wallMs = performance.now() - started;
      const timed = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr);
      const kb = timed ? Number(timed[1]) : polledKb;
      resolve({ code, stdout, stderr, wallMs, peakRssMb: kb === undefined ? undefined : kb / 1024, peakTogetherMb: togetherKb === undefined ? undefined : togetherKb / 1024 });
    });
  });
}

/** The environment for service processes: the bench's, minus settings that would override --db. */
export function cliEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.DATABASE_URL;
  delete env.NODE_OPTIONS;
  return env;
}
