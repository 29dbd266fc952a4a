/** The import envelope: one JSON object a line, naming the kind of record it carries. */
import { isUtf8 } from 'node:buffer';
import { isUuid } from '../contract/index.js';
import { projectIdProblem } from '../contract/project-id.js';
import { findDuplicateKey, hasDuplicateKey } from './duplicate-keys.js';
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
  if (nestingOver(value, MAX_NESTING)) {
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
  if (hasDuplicateKey(text, value)) {
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

/** True when objects and arrays nest deeper than `max` levels; iterative, so any depth is safe. */
function nestingOver(value: object, max: number): boolean {
  const values: unknown[] = [value];
  const depths: number[] = [1];
  while (values.length > 0) {
    const v = values.pop() as object;
    const depth = depths.pop()!;
    if (depth > max) return true;
    const items = Array.isArray(v) ? (v as unknown[]) : Object.values(v);
    for (const item of items) {
      if (typeof item === 'object' && item !== null) {
        values.push(item);
        depths.push(depth + 1);
      }
    }
  }
  return false;
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
  return topLevelMembers(buf).members.get('record')!;
}

/** Where the value of a top-level member starts, walking only the members before it. */
function memberValueStart(buf: Buffer, name: string): number | undefined {
  let i = buf.indexOf(0x7b) + 1;
  for (;;) {
    i = skipWs(buf, i);
    if (i >= buf.length || buf[i] === 0x7d) return undefined;
    if (buf[i] === 0x2c) i = skipWs(buf, i + 1);
    const keyStart = i;
    i = stringEnd(buf, i);
    const key = JSON.parse(buf.toString('utf8', keyStart, i)) as string;
    i = skipWs(buf, skipWs(buf, i) + 1);
    if (key === name) return i;
    i = valueEnd(buf, i);
  }
}

function isWs(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Byte spans of the values of a JSON object's top-level members. The input is known to be valid
 * JSON, so the scan only tracks strings and nesting; UTF-8 continuation bytes never look like ASCII.
 */
function topLevelMembers(buf: Buffer): { members: Map<string, [number, number]> } {
  const members = new Map<string, [number, number]>();
  let i = buf.indexOf(0x7b); // the opening brace
  i++;
  for (;;) {
    i = skipWs(buf, i);
    if (buf[i] === 0x7d || i >= buf.length) break; // closing brace
    if (buf[i] === 0x2c) i = skipWs(buf, i + 1);
    const keyStart = i;
    i = stringEnd(buf, i);
    const key = JSON.parse(buf.toString('utf8', keyStart, i)) as string;
    i = skipWs(buf, i);
    i = skipWs(buf, i + 1); // the colon
    const valueStart = i;
    i = valueEnd(buf, i);
    members.set(key, [valueStart, i]);
  }
  return { members };
}

function skipWs(buf: Buffer, i: number): number {
  while (i < buf.length) {
    const c = buf[i]!;
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) break;
    i++;
  }
  return i;
}

/** Index just past the string starting at `i` (which is a quote). */
function stringEnd(buf: Buffer, i: number): number {
  i++;
  for (;;) {
    const q = buf.indexOf(QUOTE, i);
    let backslashes = 0;
    for (let j = q - 1; buf[j] === BACKSLASH; j--) backslashes++;
    if (backslashes % 2 === 0) return q + 1;
    i = q + 1;
  }
}

/** Index just past the JSON value starting at `i`. */
function valueEnd(buf: Buffer, i: number): number {
  const c = buf[i];
  if (c === QUOTE) return stringEnd(buf, i);
  if (c === 0x7b || c === 0x5b) {
    let depth = 0;
    while (i < buf.length) {
      const b = buf[i]!;
      if (b === QUOTE) {
        i = stringEnd(buf, i);
        continue;
      }
      if (b === 0x7b || b === 0x5b) depth++;
      else if (b === 0x7d || b === 0x5d) {
        depth--;
        if (depth === 0) return i + 1;
      }
      i++;
    }
    return i;
  }
  // A number, true, false or null: runs to the next delimiter.
  while (i < buf.length) {
    const b = buf[i]!;
    if (b === 0x2c || b === 0x7d || b === 0x5d || b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d) break;
    i++;
  }
  return i;
}
