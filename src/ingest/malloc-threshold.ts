/**
 * An import's process frees many blocks of megabytes (long lines, statements and compressed pieces,
 * on several threads), so it runs with glibc's mmap threshold fixed. By default glibc raises that
 * threshold to the size of each mapped block freed, up to 32 MiB; from then on blocks of that size
 * come from its heaps, whose freed memory mostly stays resident. Fixed by the environment, every
 * block over the threshold is mapped and given back on its own. glibc reads the variable only when a
 * process starts, which is one reason the import runs in a child process (import-process.ts).
 */

export const MMAP_THRESHOLD_ENV = 'MALLOC_MMAP_THRESHOLD_';
/** glibc's own starting value: blocks of 128 KiB and more are mapped. */
export const MMAP_THRESHOLD_BYTES = 128 * 1024;

/** Whether this process runs on Linux with glibc (the C library whose threshold this is). */
export function onGlibc(): boolean {
  if (process.platform !== 'linux') return false;
  const header = (process.report.getReport() as { header?: { glibcVersionRuntime?: string } }).header;
  return header?.glibcVersionRuntime !== undefined;
}

/** `env` with the threshold fixed, unless it already sets one or the C library is not glibc. */
export function withFixedThreshold(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  if (env[MMAP_THRESHOLD_ENV] !== undefined || !onGlibc()) return env;
  return { ...env, [MMAP_THRESHOLD_ENV]: String(MMAP_THRESHOLD_BYTES) };
}
