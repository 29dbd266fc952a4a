/** `compliance-read access-log`: who read (or tried to read) a project's records, and when. */
import { Command } from 'commander';
import { toUtcIso } from '../contract/index.js';
import { recordKey } from '../contract/record-key.js';
import { REFUSED_RECORD_ID_CHARS, type AccessLogEntry, type AccessLogQuery } from '../access-log/access-log.js';
import type { Store } from '../store/store.js';
import { printable } from './printable.js';
import { withDbOption } from './store-option.js';
import { useStore } from './use-store.js';

/** An entry as listed: those of no project (no key, or an unknown one) are marked when listed with a project's. */
type Listed = AccessLogEntry & { unattributed?: true };

/** Batches deleted per store call by `prune`. */
const PRUNE_BATCHES_PER_CALL = 500;

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
    // Checked in the action rather than by commander, which would demand it of `prune` too.
    .option('--project <project>', 'the project (cmsProjectId); required')
    .option('--since <date>', 'from this date or date-time (inclusive)')
    .option('--until <date>', 'before this date or date-time')
    .option('--record <id>', 'only reads of this record (company, customer, alert, file or execution id; asked for or returned in a list), with the attempts of no project on it (marked unattributed)')
    .option('--limit <n>', 'most entries printed', '10000')
    .option('--json', 'one JSON object per line instead of a table, with the ids of the records each answer returned')
    .action(async (opts: { db?: string; project?: string; since?: string; until?: string; record?: string; limit: string; json?: boolean }, cmd: Command) => {
      if (opts.project === undefined) cmd.error("error: required option '--project <project>' not specified");
      const project = opts.project;
      const limit = Number(opts.limit);
      if (!Number.isInteger(limit) || limit < 1) throw new Error('--limit must be a positive whole number');
      const query = { project, since: bound('since', opts.since), until: bound('until', opts.until), limit };
      const entries = await useStore(opts, (store) =>
        opts.record === undefined ? store.queryAccessLog(query) : recordEntries(store, { ...query, recordId: recordKey(opts.record) }),
      );
      if (opts.json) {
        for (const e of entries) process.stdout.write(`${JSON.stringify(jsonOf(e))}\n`);
        return;
      }
      process.stdout.write(table(entries));
    })
    // Options after `prune` are its own (its --db included), not this command's.
    .enablePositionalOptions()
    .addCommand(pruneCommand());
}

/**
 * The entries naming a record: the project's, and the attempts no project is known for (no key,
 * or an unknown one) on the same record, marked unattributed. A refusal keeps only the first
 * REFUSED_RECORD_ID_CHARS characters of its id, so a longer id also finds refusals under that prefix.
 */
async function recordEntries(store: Store, q: AccessLogQuery & { recordId: string }): Promise<Listed[]> {
  const forms = q.recordId.length > REFUSED_RECORD_ID_CHARS ? [q.recordId, q.recordId.slice(0, REFUSED_RECORD_ID_CHARS)] : [q.recordId];
  const projects = q.project === '' ? [''] : [q.project, ''];
  const found: Listed[] = [];
  for (const project of projects) {
    for (const recordId of forms) {
      for (const e of await store.queryAccessLog({ ...q, project, recordId })) {
        if (recordId !== q.recordId && e.status < 400) continue;
        found.push(project === q.project ? e : { ...e, unattributed: true });
      }
    }
  }
  // Stable: entries of the same time keep their store order.
  return found.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0)).slice(0, q.limit);
}

/** Builds `access-log prune`: deletes whole batches older than a date. */
function pruneCommand(): Command {
  return withDbOption(new Command('prune'))
    .description('delete the access log entries older than a date (whole stored batches whose every entry is older)')
    .requiredOption('--before <date>', 'delete entries before this date or date-time (not in the future)')
    .option('--dry-run', 'only count what would be deleted')
    .action(async (_opts: unknown, cmd: Command) => {
      // `access-log --db X prune` names the store before the subcommand: that counts too.
      const opts = cmd.optsWithGlobals<{ db?: string; before: string; dryRun?: boolean }>();
      const before = bound('before', opts.before)!;
      if (before > new Date().toISOString()) throw new Error('--before must not be in the future');
      const done = await useStore(opts, async (store) => {
        if (opts.dryRun) return store.countAccessLogBefore(before);
        // Batches are pruned with their per-record rows, so the table must have caught up with them first.
        await store.indexAccessLog();
        const total = { batches: 0, entries: 0 };
        for (;;) {
          const r = await store.pruneAccessLog(before, PRUNE_BATCHES_PER_CALL);
          total.batches += r.batches;
          total.entries += r.entries;
          if (r.batches < PRUNE_BATCHES_PER_CALL) return total;
        }
      });
      const what = `${done.batches} batch${done.batches === 1 ? '' : 'es'} (${done.entries} entr${done.entries === 1 ? 'y' : 'ies'}) older than ${before}`;
      process.stdout.write(opts.dryRun ? `would delete ${what}\n` : `deleted ${what}\n`);
    });
}

/** An entry as a JSON line: the records an answer returned follow their count, so a long list is still read at a glance. */
function jsonOf(e: Listed): object {
  const { records, ...rest } = e;
  return records === undefined ? rest : { ...rest, recordCount: records.length, records };
}

function table(entries: readonly Listed[]): string {
  // "returned": how many records a list or feed answer returned (their ids are in --json).
  const head = ['time', 'key', 'status', 'route', 'record', 'returned', 'client', 'request id'];
  // Record ids, routes and clients come from requests: escaped, so none can forge a row.
  const rows = entries.map((e) => [
    e.at,
    e.unattributed ? `${e.keyId ?? '-'} (unattributed)` : (e.keyId ?? '-'),
    e.count === undefined ? String(e.status) : `${e.status} x${e.count}`,
    printable(e.route),
    e.recordId === null ? '-' : printable(e.recordId),
    e.records === undefined ? '-' : String(e.records.length),
    printable(e.client),
    printable(e.requestId),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]): string => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd() + '\n';
  return line(head) + rows.map(line).join('') + `${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}\n`;
}
