/**
 * A command whose process frees many blocks of megabytes (an import's long lines, statements and
 * compressed pieces, on three threads) runs with glibc's mmap threshold fixed. By default glibc
 * raises that threshold to the size of each mapped block freed, up to 32 MiB; from then on blocks of
 * that size come from its heaps, whose freed memory mostly stays resident. Fixed by the
 * environment, every block over the threshold is mapped and given back on its own. glibc reads the
 * variable only when a process starts, so the command runs in a child process started with it,
 * unless the environment already sets it or the C library is not glibc.
 */
import { spawn } from 'node:child_process';

export const MMAP_THRESHOLD_ENV = 'MALLOC_MMAP_THRESHOLD_';
/** glibc's own starting value: blocks of 128 KiB and more are mapped. */
export const MMAP_THRESHOLD_BYTES = 128 * 1024;

const FORWARDED = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** Whether this process runs on Linux with glibc (the C library whose threshold this is). */
export function onGlibc(): boolean {
  if (process.platform !== 'linux') return false;
  const header = (process.report.getReport() as { header?: { glibcVersionRuntime?: string } }).header;
  return header?.glibcVersionRuntime !== undefined;
}

/** Whether this process should start the command again with the threshold fixed. */
export function needsFixedThreshold(env: NodeJS.ProcessEnv = process.env): boolean {
  return env[MMAP_THRESHOLD_ENV] === undefined && onGlibc();
}

/**
 * Runs this same command line in a child process with the threshold fixed, standard streams shared,
 * and resolves with its exit code. The signals a terminal or a service manager sends reach the
 * child; a child ended by a signal ends this process by the same signal.
 */
export function runWithFixedThreshold(): Promise<number> {
  const child = spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: { ...process.env, [MMAP_THRESHOLD_ENV]: String(MMAP_THRESHOLD_BYTES) },
  });
  const forward = (signal: NodeJS.Signals): void => {
    child.kill(signal);
  };
  for (const s of FORWARDED) process.on(s, forward);
  return new Promise((resolve, reject) => {
    child.once('error', (err) => {
      for (const s of FORWARDED) process.off(s, forward);
      reject(err);
    });
    child.once('exit', (code, signal) => {
      for (const s of FORWARDED) process.off(s, forward);
      if (signal !== null) process.kill(process.pid, signal);
      resolve(code ?? 1);
    });
  });
}
