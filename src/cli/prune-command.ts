/** `compliance-read prune`: retention, for stores that must not keep old history: executions or alerts before a date. */
import { Command, Option } from 'commander';
import { instantKey, toUtcIso } from '../contract/index.js';
import { pruneRecordFiles } from '../files/record-erasure.js';
import { PRUNE_KINDS, type PruneKind } from '../store/erasure.js';
import { useStoreAndFiles, withStoreAndFiles } from './store-and-files.js';

/** Builds the prune command. */
export function pruneCommand(): Command {
  return withStoreAndFiles(new Command('prune'))
    .description(
      'delete, in every project, the executions (by last_execution_date) or alerts (by updatedAt) before a date, with their document files; ' +
        'the change feed carries an erase item per record (docs/data-protection.md)',
    )
    .requiredOption('--before <date>', 'remove records before this date (00:00 UTC) or RFC 3339 date-time; not in the future')
    .addOption(new Option('--kind <kind>', 'which records').choices(PRUNE_KINDS).makeOptionMandatory())
    .option('--dry-run', 'only count what would be removed; change nothing')
    .option('--json', 'the outcome as one JSON object')
    .action(async (opts: Record<string, unknown>) => {
      const given = opts.before as string;
      const before = toUtcIso(/^\d{4}-\d{2}-\d{2}$/.test(given) ? `${given}T00:00:00Z` : given);
      if (before === undefined) throw new Error('--before must be a date (YYYY-MM-DD) or an RFC 3339 date-time');
      if (before > new Date().toISOString()) throw new Error('--before must not be in the future');
      const kind = opts.kind as PruneKind;
      const dryRun = opts.dryRun === true;
      const report = await useStoreAndFiles(opts, (store, files) => pruneRecordFiles(store, files, kind, instantKey(before), dryRun));
      if (opts.json === true) process.stdout.write(`${JSON.stringify({ kind, before, ...report })}\n`);
      else if (dryRun) process.stdout.write(`would delete ${report.records} ${kind} before ${before} (${report.documents} document files)\n`);
      else process.stdout.write(`deleted ${report.records} ${kind} before ${before}; ${report.filesDeleted} document files deleted, ${report.filesPending} pending\n`);
      if (report.filesPending > 0) {
        process.stderr.write(`compliance-read: ${report.filesPending} document file(s) could not be deleted; run the prune again to finish\n`);
        process.exitCode = 1;
      }
    });
}
