/** What bench/search-stall.ts and bench/push-stall.ts share: a run directory, the builds measured and the data set written as NDJSON. */
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureServiceBuild, type ServiceBuild } from './build-service.js';
import { ensureWrk } from './load.js';
import { generateDemo, type DemoOptions } from '../src/demo/index.js';

export interface StallRun {
  root: string;
  /** The run's own directory under bench/.cache (mode 0700), removed by the script when done. */
  runDir: string;
  /** This checkout's build first ('this'), then each of `serviceRoots` ('root1', …). */
  builds: { name: string; build: ServiceBuild }[];
  /** The generated data set, one line per record. */
  file: string;
}

/** Prepares a run named `name`: wrk at hand, the builds of this checkout and of `serviceRoots`, and the data set of `demo` in a file. */
export async function prepareStallRun(name: string, serviceRoots: readonly string[], demo: Omit<DemoOptions, 'onDocument'>): Promise<StallRun> {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const cacheDir = join(root, 'bench', '.cache');
  const runDir = join(cacheDir, `${name}-${process.pid}`);
  mkdirSync(runDir, { recursive: true, mode: 0o700 });
  ensureWrk((l) => process.stderr.write(`${l}\n`));
  const builds = [{ name: 'this', build: await ensureServiceBuild(root, cacheDir) }];
  for (const [i, r] of serviceRoots.entries()) builds.push({ name: `root${i + 1}`, build: await ensureServiceBuild(r, cacheDir) });
  const file = join(runDir, 'data.ndjson');
  // Line by line: a large set does not fit in one string.
  const fd = openSync(file, 'w', 0o600);
  for (const line of generateDemo(demo)) writeSync(fd, `${line}\n`);
  closeSync(fd);
  return { root, runDir, builds, file };
}
