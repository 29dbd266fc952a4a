/** One input line through parsing, validation and preparing its store write: the same steps inline or in a worker. */
import { validateRecord } from '../contract/index.js';
import { keyedTextProblem } from '../contract/keyed-text.js';
import { projectIdProblem } from '../contract/project-id.js';
import type { Upsert } from '../store/store.js';
import { parseEnvelope, type LineIssue } from './envelope.js';
import { prepareRecord } from './prepare-record.js';

/** What became of a line. */
export type LineResult =
  | { kind: 'record'; upsert: Upsert; warnings: number }
  | { kind: 'reject'; issues: LineIssue[]; /** The line, when a worker hands it back (the importer's copy was moved). */ line?: Buffer };

/** Parses, validates and prepares the store write of one line (already known to be under the size limit and not blank). */
export function processLine(bytes: Buffer, gzipLevel: number | null): LineResult {
  const parsed = parseEnvelope(bytes);
  if (!parsed.ok) return { kind: 'reject', issues: parsed.issues };
  const checked = validateRecord(parsed.envelope.kind, parsed.envelope.record);
  if (!checked.ok) return { kind: 'reject', issues: checked.issues.map((i) => ({ path: `/record${i.path}`, message: i.message })) };
  const { kind, record } = parsed.envelope;
  // An execution's project is the envelope's, checked with it; the others name theirs in the record.
  const problem = kind === 'execution' ? undefined : projectIdProblem(record.cmsProjectId as string);
  if (problem !== undefined) return { kind: 'reject', issues: [{ path: '/record/cmsProjectId', message: problem }] };
  const upsert = prepareRecord(parsed.envelope, gzipLevel);
  const unstorable = unstorableKeys(upsert, parsed.envelope.record);
  if (unstorable.length > 0) return { kind: 'reject', issues: unstorable };
  return { kind: 'record', upsert, warnings: checked.warnings.length };
}

/**
 * The values the store keeps in columns of their own (the body stays JSON, escapes and all) that
 * hold NUL or lone surrogates, or are too long for an index entry: PostgreSQL would refuse the
 * whole batch the line is written with.
 */
function unstorableKeys(u: Upsert, record: Record<string, unknown>): LineIssue[] {
  const issues: LineIssue[] = [];
  const check = (path: string, value: string | null): void => {
    const problem = value === null ? undefined : keyedTextProblem(value);
    if (problem !== undefined) issues.push({ path, message: problem });
  };
  if (u.kind === 'execution') {
    check('/cmsProjectId', u.project);
    check('/record/execution_id', u.executionId);
    check('/record/execution_status', u.status);
    const scenarios = (record.scenario_executions ?? []) as { scenarioId?: unknown }[];
    scenarios.forEach((sc, i) => check(`/record/scenario_executions/${i}/scenarioId`, typeof sc.scenarioId === 'string' ? sc.scenarioId : null));
  } else {
    check('/record/cmsProjectId', u.project);
    check('/record/id', u.key);
    if (u.kind === 'alert') check('/record/assignedTo', u.listing.assignedTo);
  }
  return issues;
}
