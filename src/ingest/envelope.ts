/** The import envelope: one JSON object a line, naming the kind of record it carries. */
import { isUtf8 } from 'node:buffer';
import { isUuid } from '../contract/index.js';
import { projectIdProblem } from '../contract/project-id.js';
import { findDuplicateKey, hasDuplicateKey } from './duplicate-keys.js';
import { parsedShape } from './parsed-shape.js';
import { CLOSE_OBJECT, COMMA, JsonTokens } from '../wire/json-tokens.js';
import { ownedCopy } from '../threads/owned-bytes.js';

export type RecordKind = 'customer' | 'execution' | 'alert';

/** A problem with a line, with a JSON Pointer into the line's envelope. */
export interface LineIssue {
  path: string;
  message: string;
}

/** A line that parsed as an envelope, with the record's exact bytes as given. */
export interface Envelope {
  kind: RecordKind;
  record: Record<string, unknown>;
  recordBytes: Buffer;
  customerId?: string;
  cmsProjectId?: string;
}

/**
 * Deepest nesting of objects and arrays a line may have, the envelope being level 1: the
 * contract's deepest records need 12, and every level costs each recursive reader downstream.
 */
export const MAX_NESTING = 64;

const MEMBERS: Record<RecordKind, readonly string[]> = {
  customer: ['kind', 'record'],
  alert: ['kind', 'record'],
  execution: ['kind', 'customerId', 'cmsProjectId', 'record'],
};

/** Parses one line into an envelope, or says every way in which it is not one. */
export function parseEnvelope(bytes: Buffer): { ok: true; envelope: Envelope } | { ok: false; issues: LineIssue[] } {
  const fail = (path: string, message: string) => ({ ok: false as const, issues: [{ path, message }] });
  if (!isUtf8(bytes)) return fail('', 'line is not valid UTF-8');
  let value: unknown;
  const text = bytes.toString('utf8');
  try {
    value = JSON.parse(text);
  } catch (err) {
    return fail('', `line is not valid JSON: ${(err as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return fail('', 'line must be a JSON object envelope {"kind": ..., "record": {...}}');
  }
  const shape = parsedShape(value, MAX_NESTING);
  if (shape.tooDeep) {
    return fail(deepestPath(value, MAX_NESTING) ?? '', `objects and arrays are nested deeper than ${MAX_NESTING} levels`);
  }
  const env = value as Record<string, unknown>;
  const kind = env.kind;
  if (kind !== 'customer' && kind !== 'execution' && kind !== 'alert') {
    return fail('/kind', 'must be one of: customer, execution, alert');
  }
  const issues: LineIssue[] = [];
  for (const key of Object.keys(env)) {
    if (!MEMBERS[kind].includes(key)) issues.push({ path: `/${escapePointer(key)}`, message: 'is not an envelope member' });
  }
  const record = env.record;
  if (typeof record !== 'object' || record === null || Array.isArray(record)) {
    issues.push({ path: '/record', message: 'must be a JSON object' });
  }
  if (kind === 'execution') {
    if (typeof env.customerId !== 'string' || !isUuid(env.customerId)) {
      issues.push({ path: '/customerId', message: 'must be a uuid' });
    }
    const problem = typeof env.cmsProjectId === 'string' ? projectIdProblem(env.cmsProjectId) : 'must be a string';
    if (problem !== undefined) issues.push({ path: '/cmsProjectId', message: problem });
  }
  if (hasDuplicateKey(text, shape.members)) {
    issues.push({ path: findDuplicateKey(bytes) ?? '', message: 'member name appears twice in one object (JSON parsers disagree on which wins)' });
  }
  if (issues.length > 0) return { ok: false, issues };
  const span = recordSpan(bytes, Object.keys(env));
  return {
    ok: true,
    envelope: {
      kind,
      record: record as Record<string, unknown>,
      // Owned, so a worker can hand the record's bytes over without a copy.
      recordBytes: ownedCopy(bytes, span[0], span[1]),
      customerId: env.customerId as string | undefined,
      cmsProjectId: env.cmsProjectId as string | undefined,
    },
  };
}

/** JSON Pointer of the first value at level `max + 1` (recursion stops there, so it stays shallow). */
function deepestPath(value: unknown, max: number, depth = 1): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  if (depth > max) return '';
  for (const key in value) {
    const below = deepestPath((value as Record<string, unknown>)[key], max, depth + 1);
    if (below !== undefined) return `/${escapePointer(key)}${below}`;
  }
  return undefined;
}

/** Escapes a key for a JSON Pointer (RFC 6901). */
export function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * Byte span of the `record` member's value. When it is the last member (as writers put it), it ends
 * at the envelope's closing brace: no scan of the record at all. Otherwise the members are walked.
 */
function recordSpan(buf: Buffer, keys: readonly string[]): [number, number] {
  if (keys[keys.length - 1] === 'record') {
    let end = buf.length - 1;
    while (isWs(buf[end]!)) end--; // the envelope's closing brace
    end--;
    while (isWs(buf[end]!)) end--;
    const start = memberValueStart(buf, 'record');
    if (start !== undefined) return [start, end + 1];
  }
  return topLevelMembers(buf).get('record')!;
}

/** Where the value of a top-level member starts, walking only the members before it. */
function memberValueStart(buf: Buffer, name: string): number | undefined {
  const t = new JsonTokens(buf);
  t.next(); // the opening brace
  while (nextMember(t)) {
    if (t.text() === name) return valueToken(t).start;
    valueToken(t).skipValue();
  }
  return undefined;
}

function isWs(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

/** Byte spans of the values of a JSON object's top-level members; the input is known to be valid JSON. */
function topLevelMembers(buf: Buffer): Map<string, [number, number]> {
  const members = new Map<string, [number, number]>();
  const t = new JsonTokens(buf);
  t.next(); // the opening brace
  while (nextMember(t)) {
    const key = t.text();
    const start = valueToken(t).start;
    t.skipValue();
    members.set(key, [start, t.end]);
  }
  return members;
}

/** Moves to the next member's name; false at the object's closing brace. */
function nextMember(t: JsonTokens): boolean {
  const kind = t.next();
  if (kind === 0 || kind === CLOSE_OBJECT) return false;
  if (kind === COMMA) t.next();
  return true;
}

/** From a member's name to the first token of its value. */
function valueToken(t: JsonTokens): JsonTokens {
  t.next();
  return t;
}
