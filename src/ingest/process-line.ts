/** One input line through parsing, validation and shaping: the same steps inline or in a worker. */
import { validateRecord } from '../contract/index.js';
import { projectIdProblem } from '../contract/project-id.js';
import type { Upsert } from '../store/store.js';
import { parseEnvelope, type LineIssue } from './envelope.js';
import { shapeRecord } from './shape-record.js';

/** What became of a line. */
export type LineResult =
  | { kind: 'record'; upsert: Upsert; warnings: number }
  | { kind: 'reject'; issues: LineIssue[]; /** The line, when a worker hands it back (the importer's copy was moved). */ line?: Buffer };

/** Parses, validates and shapes one line (already known to be under the size limit and not blank). */
export function processLine(bytes: Buffer, gzipLevel: number | null): LineResult {
  const parsed = parseEnvelope(bytes);
  if (!parsed.ok) return { kind: 'reject', issues: parsed.issues };
  const checked = validateRecord(parsed.envelope.kind, parsed.envelope.record);
  if (!checked.ok) return { kind: 'reject', issues: checked.issues.map((i) => ({ path: `/record${i.path}`, message: i.message })) };
  const { kind, record } = parsed.envelope;
  // An execution's project is the envelope's, checked with it; the others name theirs in the record.
  const problem = kind === 'execution' ? undefined : projectIdProblem(record.cmsProjectId as string);
  if (problem !== undefined) return { kind: 'reject', issues: [{ path: '/record/cmsProjectId', message: problem }] };
  return { kind: 'record', upsert: shapeRecord(parsed.envelope, gzipLevel), warnings: checked.warnings.length };
}
