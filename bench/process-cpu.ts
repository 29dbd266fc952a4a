/** CPU time of processes, read from /proc: CPU per answer is far steadier than a short window's req/s on a shared machine. */
import { readFileSync, readdirSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** User + system CPU of a process in microseconds; 0 once it is gone. */
function processMicros(pid: number): number {
  try {
    // Fields after the parenthesised command name: state is the first, utime the 12th, stime the 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/**
 * Starts counting the CPU of `pids`; the function returned gives the microseconds they used
 * since, counting only processes still running (one that exited, such as an autovacuum worker,
 * would otherwise subtract all its time). NaN where there is no /proc.
 */
export function cpuSince(pids: readonly number[]): () => number {
  if (process.platform !== 'linux') return () => NaN;
  const start = pids.map(processMicros);
  return () =>
    pids.reduce((sum, pid, i) => {
      const now = processMicros(pid);
      return now === 0 ? sum : sum + now - start[i]!;
    }, 0);
}

/** Every PostgreSQL server process on this machine (postmaster, backends, WAL writer, autovacuum). */
export function postgresPids(): number[] {
  if (process.platform !== 'linux') return [];
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').startsWith('postgres')) pids.push(Number(entry));
    } catch {
      // The process ended while the list was read.
    }
  }
  return pids;
}

/**
 * User + system CPU of this process's children that have exited and been waited for, in µs
 * (cutime and cstime of /proc/self/stat): the load generator's CPU once its run is over.
 */
export function childrenCpuMicros(): number {
  if (process.platform !== 'linux') return NaN;
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[13]) + Number(fields[14])) * 1e6) / TICKS_PER_SECOND;
}

/**
 * Waits until `pids` use less than `share` of one core over a whole second (the service's
 * background work after the feed catch-up, such as indexing the access log, would otherwise run
 * beside the windows), at most `maxSeconds`. Answers the seconds waited and whether it settled.
 */
export async function settle(pids: () => number[], share = 0.05, maxSeconds = 180): Promise<{ seconds: number; settled: boolean }> {
  const started = performance.now();
  for (let i = 0; i < maxSeconds; i++) {
    const used = cpuSince(pids());
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const micros = used();
    if (Number.isNaN(micros) || micros < share * 1e6) return { seconds: (performance.now() - started) / 1000, settled: true };
  }
  return { seconds: (performance.now() - started) / 1000, settled: false };
}
