/**
 * Turns ajv errors into issues a person can act on: a JSON Pointer to the offending value
 * and a plain sentence ("must be one of: Low, Medium, High", "is required").
 */
import type { ErrorObject } from 'ajv';

/** One problem found in a record: where (JSON Pointer into the record) and what. */
export interface Issue {
  path: string;
  message: string;
}

const TYPE_NAMES: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  integer: 'an integer',
  boolean: 'a boolean',
  object: 'an object',
  array: 'an array',
  null: 'null',
};

const FORMAT_MESSAGES: Record<string, string> = {
  uuid: 'must be a uuid',
  'date-time': 'must be a date-time (RFC 3339)',
  email: 'must be an email address',
  uri: 'must be a URI',
  'currency-code': 'must be a known currency code',
  'attribute-path': 'must be an allowed attribute path (SPEC 2.3.1)',
};

// Above this many values a list stops being readable; the enum's name is given instead.
const MAX_LISTED_VALUES = 40;

function alternatives(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

/** Escapes one property name for use as a JSON Pointer segment (RFC 6901). */
export function pointerSegment(name: string): string {
  return name.replace(/~/g, '~0').replace(/\//g, '~1');
}

function typeMessage(type: unknown): string {
  const list = Array.isArray(type) ? (type as string[]) : String(type).split(',');
  return `must be ${alternatives(list.map((t) => TYPE_NAMES[t] ?? t))}`;
}

function enumMessage(error: ErrorObject): string {
  const allowed = (error.params as { allowedValues?: unknown[] }).allowedValues ?? [];
  const values = allowed.filter((v) => v !== null).map(String);
  const orNull = allowed.includes(null) ? ' (or null)' : '';
  if (values.length > MAX_LISTED_VALUES) {
    const title = (error.parentSchema as { title?: string } | undefined)?.title;
    return `must be one of the ${values.length} allowed ${title ?? ''} values${orNull}`.replace('  ', ' ');
  }
  return `must be one of: ${values.join(', ')}${orNull}`;
}

function toIssue(error: ErrorObject): Issue {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return { path: `${error.instancePath}/${pointerSegment(String(params.missingProperty))}`, message: 'is required' };
    case 'type':
      // A number literal past a double's range parses to ±Infinity: say why it is refused.
      if (typeof error.data === 'number' && !Number.isFinite(error.data)) return { path: error.instancePath, message: 'must be a number within the range of a 64-bit float (about ±1.8e308)' };
      return { path: error.instancePath, message: typeMessage(params.type) };
    case 'enum':
      return { path: error.instancePath, message: enumMessage(error) };
    case 'format':
      return {
        path: error.instancePath,
        message: FORMAT_MESSAGES[String(params.format)] ?? `must be in ${String(params.format)} format`,
      };
    case 'maximum':
      return { path: error.instancePath, message: `must be at most ${String(params.limit)}` };
    default:
      return { path: error.instancePath, message: error.message ?? `fails ${error.keyword}` };
  }
}

/** Issues for ajv's errors; a value of the wrong type gets only its type issue. */
export function toIssues(errors: readonly ErrorObject[]): Issue[] {
  const wrongType = new Set<string>();
  for (const e of errors) if (e.keyword === 'type') wrongType.add(e.instancePath);
  const seen = new Set<string>();
  const issues: Issue[] = [];
  for (const e of errors) {
    if (e.keyword !== 'type' && wrongType.has(e.instancePath) && e.keyword !== 'required') continue;
    const issue = toIssue(e);
    const key = `${issue.path}\u0000${issue.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push(issue);
  }
  return issues;
}
