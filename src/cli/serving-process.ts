/** V8 settings of a process that serves requests (`serve`, `start`). */
import { setFlagsFromString } from 'node:v8';

/** The flag's name as node takes it: `--parallel-scavenge` or `--no-parallel-scavenge`. */
const FLAG = 'parallel-scavenge';

/**
 * Young-generation collections run by the serving thread alone. Shared with V8's helper threads,
 * a collection's pause lasts until every helper has been given a core, and under load the cores
 * are taken by the store's and the access log's threads and by other processes; every request in
 * flight waits out that pause (bench/results/2026-11-28-log-bits.md). V8 reads this flag at each
 * collection, so setting it after start takes effect. A node flag or NODE_OPTIONS naming it wins.
 * Returns whether it was set here.
 */
export function tuneServingProcess(execArgv: readonly string[] = process.execArgv, nodeOptions = process.env.NODE_OPTIONS ?? ''): boolean {
  if ([...execArgv, nodeOptions].some((arg) => arg.includes(FLAG))) return false;
  setFlagsFromString(`--no-${FLAG}`);
  return true;
}
