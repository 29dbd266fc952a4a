/** Validates a request's path and query parameters against its operation's definition. */
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';
import { addContractFormats } from '../contract/formats.js';
import type { Operation } from '../contract/operations.js';
import { ServiceError, type Problem } from '../contract/error-codes.js';
import { isStorableText, UNSTORABLE_MESSAGE } from '../contract/storable-text.js';
import { bounded } from './errors.js';

// The schemas are the contract's own, each checked against the meta-schema by parameters.test.ts:
// checking them again at the first request would compile the meta-schema during start-up.
const ajv = addContractFormats(new Ajv2020({ allErrors: false, strict: false, validateSchema: false }));
const compiled = new WeakMap<object, ValidateFunction>();

function check(schema: object, value: unknown): boolean {
  let v = compiled.get(schema);
  if (v === undefined) {
    v = ajv.compile(schema);
    compiled.set(schema, v);
  }
  return v(value);
}

const pathEntriesOf = new WeakMap<Operation, [string, Operation['pathParameters'][string]][]>();

/** An operation's path parameters as entries, listed once rather than on every request. */
function pathEntries(op: Operation): [string, Operation['pathParameters'][string]][] {
  let entries = pathEntriesOf.get(op);
  if (entries === undefined) {
    entries = Object.entries(op.pathParameters);
    pathEntriesOf.set(op, entries);
  }
  return entries;
}

/** Parsed parameters: path values, and query values (arrays for repeatable ones). */
export interface Parameters {
  path: Record<string, string>;
  query: Record<string, string | number | string[] | undefined>;
}

const MAX_QUERY_VALUES = 64;

/** Checks every parameter; throws one invalid_request naming each bad or unknown parameter. */
export function parseParameters(op: Operation, pathParams: Record<string, string>, rawUrl: string): Parameters {
  const problems: Problem[] = [];
  const path: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [name, def] of pathEntries(op)) {
    const value = pathParams[name] ?? '';
    // Before any schema: the rule holds for every parameter, whatever its own schema allows.
    if (!isStorableText(value)) problems.push({ message: `${name}: ${UNSTORABLE_MESSAGE}` });
    else if (!check(def.schema, value)) problems.push({ message: `${name}: ${describe(def.schema)}` });
    path[name] = value;
  }
  const query: Parameters['query'] = Object.create(null) as Parameters['query'];
  const q = rawUrl.indexOf('?');
  // Most reads have no query: no URLSearchParams for them.
  if (q >= 0) readQuery(op, rawUrl.slice(q + 1), query, problems);
  if (problems.length > 0) throw new ServiceError('invalid_request', 'the request has invalid parameters', problems);
  return { path, query };
}

/** Checks the query string's parameters into `query`, adding to `problems`. */
function readQuery(op: Operation, search: string, query: Parameters['query'], problems: Problem[]): void {
  const seen = new Map<string, string[]>();
  let count = 0;
  for (const [name, value] of new URLSearchParams(search)) {
    if (++count > MAX_QUERY_VALUES) {
      problems.push({ message: `query: more than ${MAX_QUERY_VALUES} parameters` });
      break;
    }
    const list = seen.get(name) ?? [];
    list.push(value);
    seen.set(name, list);
  }
  for (const [name, values] of seen) {
    // Own properties only: a parameter named `constructor` or `__proto__` is just unknown.
    const def = Object.hasOwn(op.query, name) ? (op.query as Record<string, Operation['query'][string]>)[name] : undefined;
    if (def === undefined) {
      problems.push({ message: `${bounded(name, 64)}: unknown query parameter; this operation takes ${Object.keys(op.query).join(', ') || 'none'}` });
      continue;
    }
    if (values.length > 1 && !def.repeatable) {
      problems.push({ message: `${name}: given ${values.length} times; it may be given once` });
      continue;
    }
    const parsed: (string | number)[] = [];
    for (const raw of values) {
      if (!isStorableText(raw)) {
        problems.push({ message: `${name}: ${UNSTORABLE_MESSAGE}` });
        continue;
      }
      const value = def.parse === 'integer' && /^-?\d{1,15}$/.test(raw) ? Number(raw) : raw;
      if (!check(def.schema, value)) problems.push({ message: `${name}: ${describe(def.schema)}, got ${JSON.stringify(raw.slice(0, 100))}` });
      else parsed.push(value);
    }
    query[name] = def.repeatable ? (parsed as string[]) : parsed[0];
  }
}

/** A human description of what a parameter schema accepts. */
function describe(schema: Record<string, unknown>): string {
  if (Array.isArray(schema.enum)) return `must be one of: ${schema.enum.join(', ')}`;
  if (schema.format === 'uuid') return 'must be a uuid';
  if (schema.type === 'integer') return `must be a whole number from ${String(schema.minimum)} to ${String(schema.maximum)}`;
  if (typeof schema.pattern === 'string') return `must be ${String(schema.description ?? 'well formed')}`;
  return `must be a string of ${String(schema.minLength ?? 0)} to ${String(schema.maxLength ?? 'any')} characters`;
}
