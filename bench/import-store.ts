/** Imports the data set into a store through the CLI and mints one API key per project. */
import type { ServiceBuild } from './build-service.js';
import { runCli } from './cli-runner.js';
import type { BenchStore } from './stores.js';

export interface ImportResult {
  records: number;
  stored: number;
  rejected: number;
  seconds: number;
  recordsPerSecond: number;
  /** The import's peak memory: its largest process's RSS or its processes' resident memory together, whichever is more. */
  peakRssMb: number | undefined;
  largestProcessMb: number | undefined;
  togetherMb: number | undefined;
}

/** Runs `import FILE --json` and reports records/s over the whole process lifetime. */
export async function importDataset(build: ServiceBuild, store: BenchStore, file: string): Promise<ImportResult> {
  let lastShown = performance.now();
  // The importer prints a progress line every few seconds; a large import takes most of an hour,
  // so pass one on every half minute.
  const onStderr = (chunk: string): void => {
    const line = chunk.split('\n').find((l) => l.includes(' read, '));
    if (line === undefined || performance.now() - lastShown < 30_000) return;
    lastShown = performance.now();
    process.stderr.write(`  ${store.kind} import: ${line.trim()}\n`);
  };
  const r = await runCli(build, ['import', file, '--json', '--db', store.url], { cwd: store.cwd, measure: true, onStderr });
  const last = r.stdout.trim().split('\n').pop() ?? '';
  if (r.code !== 0 || !last.startsWith('{')) throw new Error(`import into ${store.kind} failed (exit ${r.code}):\n${r.stderr.slice(-2000)}`);
  const summary = JSON.parse(last) as { read: number; stored: number; rejected: number };
  const seconds = r.wallMs / 1000;
  return { records: summary.read, stored: summary.stored, rejected: summary.rejected, seconds, recordsPerSecond: summary.read / seconds, peakRssMb: maxOf(r.peakRssMb, r.peakTogetherMb), largestProcessMb: r.peakRssMb, togetherMb: r.peakTogetherMb };
}

function maxOf(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined ? b : b === undefined ? a : Math.max(a, b);
}

/** Creates a key per project (`keys create` prints it as its last line). */
export async function createKeys(build: ServiceBuild, store: BenchStore, projects: string[], scopes?: string[]): Promise<Map<string, string>> {
  const keys = new Map<string, string>();
  for (const project of projects) {
    const args = ['keys', 'create', '--project', project, '--name', 'bench', '--db', store.url, ...(scopes === undefined ? [] : ['--scopes', ...scopes])];
    const r = await runCli(build, args, { cwd: store.cwd });
    const key = r.stdout.trim().split('\n').pop();
    if (r.code !== 0 || key === undefined || key === '') throw new Error(`keys create on ${store.kind} failed:\n${r.stderr}`);
    keys.set(project, key);
  }
  return keys;
}
