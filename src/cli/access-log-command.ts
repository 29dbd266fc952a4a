/** `compliance-read access-log`: who read (or tried to read) a project's records, and when. */
import { Command } from 'commander';
import { toUtcIso } from '../contract/index.js';
import { recordKey } from '../contract/record-key.js';
import type { AccessLogEntry } from '../store/access-log.js';
import { useStore, withDbOption } from './store-option.js';

/** An ISO 8601 bound from a date or date-time argument, in the log's UTC form (a leap second is the next second). */
function bound(name: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const full = /^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value;
  const iso = toUtcIso(full);
  if (iso === undefined) throw new Error(`--${name} must be a date (YYYY-MM-DD) or an RFC 3339 date-time`);
  return iso;
}

/** Builds the access-log command. */
export function accessLogCommand(): Command {
  return withDbOption(new Command('access-log'))
    .description('print the access log of a project: every read of a record and every refused attempt')
    .requiredOption('--project <project>', 'the project (cmsProjectId)')
    .option('--since <date>', 'from this date or date-time (inclusive)')
    .option('--until <date>', 'before this date or date-time')
    .option('--record <id>', 'only reads of this record (company, customer, alert or file id)')
    .option('--limit <n>', 'most entries printed', '10000')
    .option('--json', 'one JSON object per line instead of a table')
    .action(async (opts: { db?: string; project: string; since?: string; until?: string; record?: string; limit: string; json?: boolean }) => {
      const limit = Number(opts.limit);
      if (!Number.isInteger(limit) || limit < 1) throw new Error('--limit must be a positive whole number');
      const entries = await useStore(opts, (store) =>
        store.queryAccessLog({
          project: opts.project,
          since: bound('since', opts.since),
          until: bound('until', opts.until),
          recordId: opts.record === undefined ? undefined : recordKey(opts.record),
          limit,
        }),
      );
      if (opts.json) {
        for (const e of entries) process.stdout.write(`${JSON.stringify(e)}\n`);
        return;
      }
      process.stdout.write(table(entries));
    });
}

function table(entries: readonly AccessLogEntry[]): string {
  const head = ['time', 'key', 'status', 'route', 'record', 'client', 'request id'];
  const rows = entries.map((e) => [e.at, e.keyId ?? '-', String(e.status), e.route, e.recordId ?? '-', e.client, e.requestId]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]): string => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd() + '\n';
  return line(head) + rows.map(line).join('') + `${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}\n`;
}
