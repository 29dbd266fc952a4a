/** `compliance-read copy --from URL --to URL`: moves a whole store between SQLite and PostgreSQL. */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { loadConfig, storeOptionsOf } from '../config/load-config.js';
import { copyStore, totalRows, type CopyCounts } from '../store/copy-store.js';
import { isPostgresUrl, openStore, sqlitePath } from '../store/open-store.js';

/** What a copy did, as printed with --json. */
export interface CopyReport extends CopyCounts {
  rows: number;
  seconds: number;
  rowsPerSecond: number;
}

/** True when two URLs name the same store, so a copy would read what it writes. */
export function sameStore(a: string, b: string): boolean {
  if (isPostgresUrl(a) !== isPostgresUrl(b)) return false;
  return isPostgresUrl(a) ? a === b : resolve(sqlitePath(a)) === resolve(sqlitePath(b));
}

/** Opens both stores, copies `from` into `to`, and reports counts and rate. */
export async function runCopy(
  from: string,
  to: string,
  options: { chunkRows: number; force: boolean; onProgress?: (counts: CopyCounts, seconds: number) => void; warn?: (line: string) => void },
): Promise<CopyReport> {
  const warn = options.warn ?? ((line: string): void => void process.stderr.write(`${line}\n`));
  if (sameStore(from, to)) throw new Error('--from and --to name the same store');
  // Opening a SQLite path creates the file: a mistyped source would copy an empty store.
  if (!isPostgresUrl(from) && !existsSync(sqlitePath(from))) throw new Error(`--from: no SQLite store at ${sqlitePath(from)}`);
  const config = loadConfig();
  const storeOptions = storeOptionsOf(config, 'bulk writes');
  const source = await openStore(from, { ...storeOptions, source: '--from' });
  try {
    const target = await openStore(to, { ...storeOptions, bulkWrites: true, source: '--to' });
    target.onAccessLogIndexFailure(({ err, batch }) =>
      warn(`access log catch-up failed${batch === undefined ? '' : ` for batch ${batch.id} of project ${JSON.stringify(batch.project)} (it stays flagged; queries still read it)`}: ${err.message}`),
    );
    try {
      const started = performance.now();
      const elapsed = (): number => (performance.now() - started) / 1000;
      const counts = await copyStore(source, target, {
        chunkRows: options.chunkRows,
        force: options.force,
        onProgress: (c) => options.onProgress?.(c, elapsed()),
        onRewritten: (row) => warn(`copied ${row} with NUL or unpaired surrogate characters replaced by U+FFFD (the target cannot hold them)`),
      });
      const seconds = elapsed();
      const rows = totalRows(counts);
      return { ...counts, rows, seconds, rowsPerSecond: Math.round(rows / Math.max(seconds, 0.001)) };
    } finally {
      await target.close();
    }
  } finally {
    await source.close();
  }
}

/** The summary for people: counts per table, then the rate. */
export function describeCopy(r: CopyReport): string {
  const n = (v: number): string => v.toLocaleString('en');
  return (
    `copied ${n(r.customers)} customers with a record, ${n(r.bareCustomers)} known only through executions, ` +
    `${n(r.companies)} company list rows, ` +
    `${n(r.alerts)} alerts, ${n(r.executions)} executions, ${n(r.apiKeys)} API keys, ${n(r.accessLogBatches)} access log batches, ${n(r.changes)} change feed entries, ` +
    `${n(r.erasures)} erasure tombstones, ${n(r.fileDeletions)} pending file deletions and the secret\n` +
    `${n(r.rows)} rows in ${r.seconds.toFixed(1)} s (${n(r.rowsPerSecond)} rows/s)\n`
  );
}

const positive = (v: string): number => {
  if (!/^\d+$/.test(v) || Number(v) < 1 || Number(v) > 50_000) throw new InvalidArgumentError('expected a whole number from 1 to 50000');
  return Number(v);
};

/** Builds the copy command. */
export function copyCommand(): Command {
  return new Command('copy')
    .description(
      'copy a whole store (records, API key hashes, the signing secret) to another, SQLite or PostgreSQL, without re-importing',
    )
    .requiredOption('--from <url>', 'the source: SQLite file path (or sqlite:PATH), or a postgres:// URL')
    .requiredOption('--to <url>', 'the target, created and migrated as needed; must hold no records')
    .option('--batch <n>', 'most rows per read and per write transaction (fewer when records are large)', positive, 1000)
    .option('--force', 'copy into a target that holds records: source rows replace rows with the same key')
    .option('--json', 'print the summary as one JSON object')
    .action(async (opts: { from: string; to: string; batch: number; force?: boolean; json?: boolean }) => {
      let lastLine = performance.now();
      const report = await runCopy(opts.from, opts.to, {
        chunkRows: opts.batch,
        force: opts.force === true,
        onProgress: (c, seconds) => {
          // A line every few seconds: readable on a terminal and in a log alike.
          if (performance.now() - lastLine < 5000) return;
          lastLine = performance.now();
          const rows = totalRows(c);
          process.stderr.write(`copied ${rows.toLocaleString('en')} rows (${Math.round(rows / seconds).toLocaleString('en')}/s)\n`);
        },
      });
      process.stdout.write(opts.json ? `${JSON.stringify(report)}\n` : describeCopy(report));
    });
}
