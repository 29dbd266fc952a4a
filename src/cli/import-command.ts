/** `compliance-read import FILE...`: validated NDJSON import. */
import { Command } from 'commander';
import { ImportStopped, type ImportSummary } from '../ingest/import-summary.js';
import { importInProcess } from '../ingest/import-process.js';
import { defaultWorkers } from '../ingest/default-workers.js';
import { progressReporter } from './progress.js';
import { withDbOption } from './store-option.js';
import { loadConfig, storeOptionsOf } from '../config/load-config.js';
import { SETTINGS } from '../config/settings.js';
import { StoreError } from '../store/store-errors.js';

/** Builds the import command. */
export function importCommand(): Command {
  return withDbOption(new Command('import'))
    .description('import NDJSON envelopes (plain or gzip; - for stdin) into the store')
    .argument('<files...>', 'NDJSON files, one envelope per line')
    .option('--json', 'print the summary as one JSON object on the last line of stdout')
    .option('--gzip-level <n>', 'zlib level of stored gzip bytes (0 stores none) [env GZIP_LEVEL]')
    .option('--max-line-bytes <n>', 'longest accepted line', String(16 * 1024 * 1024))
    .option(SETTINGS.maxRejects.flag, `${SETTINGS.maxRejects.description} [env ${SETTINGS.maxRejects.env}] (default ${SETTINGS.maxRejects.default})`)
    .option('--workers <n>', 'worker threads parsing, validating and compressing (0: none)', String(defaultWorkers()))
    .action(async (files: string[], opts: { db?: string; json?: boolean; gzipLevel?: string; maxLineBytes: string; maxRejects?: string; workers: string }) => {
      const config = loadConfig({ databaseUrl: opts.db, gzipLevel: opts.gzipLevel, maxRejects: opts.maxRejects });
      const progress = progressReporter(process.stderr);
      let stopped: ImportStopped | undefined;
      const job = {
        db: config.databaseUrl,
        store: storeOptionsOf(config, 'bulk writes'),
        files,
        options: {
          gzipLevel: config.gzipLevel === 0 ? null : config.gzipLevel,
          maxLineBytes: Number(opts.maxLineBytes),
          maxRejects: config.maxRejects,
          workers: Number(opts.workers),
        },
      };
      const summary: ImportSummary = await importInProcess(job, progress.onProgress).catch((err: unknown) => {
        progress.done();
        if (err instanceof ImportStopped) {
          stopped = err;
          return err.summary;
        }
        if (!(err instanceof StoreError)) throw err;
        // Each batch commits whole or not at all, and a re-run skips what is already stored.
        throw new Error(`${err.message}.\nBatches committed before the failure are complete; once fixed, run the same import again: it resumes.`);
      });
      progress.done();
      if (opts.json) {
        process.stdout.write(`${JSON.stringify(summary)}\n`);
      } else {
        const s = summary;
        process.stdout.write(
          `read ${s.read}, stored ${s.stored}, unchanged ${s.unchanged}, stale ${s.stale}, rejected ${s.rejected}, warnings ${s.warnings}\n`,
        );
        if (s.rejected > 0) process.stdout.write('rejected lines are listed in the .rejects.ndjson file beside each input\n');
      }
      if (stopped !== undefined) process.stderr.write(`compliance-read: ${stopped.message}\n`);
      if (summary.rejected > 0) process.exitCode = 1;
    });
}
