/** `compliance-read erase`: erases a customer of a project, with its executions, alerts and document files. */
import { Command } from 'commander';
import { recordKey } from '../contract/record-key.js';
import { projectIdProblem } from '../contract/project-id.js';
import { isStorableText, UNSTORABLE_MESSAGE } from '../contract/storable-text.js';
import { eraseCustomerFiles, type ErasureReport } from '../files/record-erasure.js';
import { printable } from './printable.js';
import { useStoreAndFiles, withStoreAndFiles } from './store-and-files.js';

/** Builds the erase command. */
export function eraseCommand(): Command {
  return withStoreAndFiles(new Command('erase'))
    .description(
      'erase a customer: its record, executions, alerts and their document files; the change feed carries an erase item per record, ' +
        'and an older version imported later is refused as stale (docs/data-protection.md)',
    )
    .requiredOption('--project <project>', 'the project (cmsProjectId) of the customer')
    .requiredOption('--customer <id>', 'the customer id (uuids match in either case)')
    .option('--dry-run', 'only count what would be removed; change nothing')
    .option('--json', 'the outcome as one JSON object')
    .action(async (opts: Record<string, unknown>) => {
      const project = opts.project as string;
      const customer = opts.customer as string;
      const problem = projectIdProblem(project);
      if (problem !== undefined) throw new Error(`--project ${problem}, got ${printable(project)}`);
      if (customer === '' || customer.length > 256) throw new Error('--customer must be 1 to 256 characters');
      if (!isStorableText(customer)) throw new Error(`--customer ${UNSTORABLE_MESSAGE}`);
      const dryRun = opts.dryRun === true;
      const report = await useStoreAndFiles(opts, (store, files) => eraseCustomerFiles(store, files, project, recordKey(customer), dryRun));
      process.stdout.write(opts.json === true ? `${JSON.stringify({ customerId: customer, ...report })}\n` : describe(report, customer));
      if (report.filesPending > 0) {
        process.stderr.write(`compliance-read: ${report.filesPending} document file(s) could not be deleted; run the erase again to finish\n`);
        process.exitCode = 1;
      }
    });
}

function describe(r: ErasureReport, customer: string): string {
  const what = `${r.customers} customer record, ${r.executions} executions, ${r.alerts} alerts, ${r.documents} document files`;
  if (r.dryRun) return `would erase customer ${printable(customer)}: ${what}\n`;
  return `erased customer ${printable(customer)}: ${what}; ${r.filesDeleted} files deleted, ${r.filesPending} pending\n`;
}
