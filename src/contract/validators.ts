/**
 * Record validation for import. One ajv instance (JSON Schema 2020-12, the dialect of
 * OpenAPI 3.1) compiled once at module load; it never coerces types, removes fields or
 * fills defaults, because stored records must be byte-for-byte what the platform sent.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { TSchema } from '@sinclair/typebox';
import type { ValidateFunction } from 'ajv';
import { Alert } from './alert.js';
import { CompanyDetails } from './company.js';
import { ErrorBody } from './error-body.js';
import { Execution } from './execution.js';
import { addContractFormats } from './formats.js';
import { UNLISTED_FIELD_KEYWORD, withUnlistedFieldReports } from './listed-fields.js';
import { toIssues, type Issue } from './messages.js';

export type { Issue } from './messages.js';

/** The record kinds the service stores. */
export type RecordKind = 'customer' | 'execution' | 'alert';

/** Outcome of validating one record: errors reject it, warnings (unlisted fields) do not. */
export type ValidationResult = { ok: true; warnings: Issue[] } | { ok: false; issues: Issue[] };

/** The shared ajv instance with the contract's formats (uuid, date-time, currency-code, ...). */
export const contractAjv = addContractFormats(
  new Ajv2020({
    // strict: a schema mistake (unknown keyword, conflicting types) fails at load, not silently.
    strict: true,
    allErrors: true,
    // verbose puts the failing schema on each error, so enum errors can name their set.
    verbose: true,
    allowUnionTypes: true,
    // Inline every enum as a chain of ===: the country lists (~250 values) are otherwise
    // checked with a deep-equal loop, several times slower.
    loopEnum: Number.MAX_SAFE_INTEGER,
    coerceTypes: false,
    useDefaults: false,
    removeAdditional: false,
  }),
);

// Paths of unlisted fields met during the current (synchronous) validate call.
let unlisted: string[] = [];

contractAjv.addKeyword({
  keyword: UNLISTED_FIELD_KEYWORD,
  schemaType: 'boolean',
  errors: false,
  validate: (_schema: boolean, _data: unknown, _parent: unknown, cxt?: { instancePath: string }) => {
    if (cxt) unlisted.push(cxt.instancePath);
    return true;
  },
});

function compile(schema: TSchema): ValidateFunction {
  return contractAjv.compile(withUnlistedFieldReports(schema));
}

// Compiled on first use: the server never validates records, and compiling costs start-up time.
const SCHEMAS: Record<RecordKind | 'error', TSchema> = { customer: CompanyDetails, execution: Execution, alert: Alert, error: ErrorBody };
const compiled = new Map<RecordKind | 'error', ValidateFunction>();
function validatorFor(kind: RecordKind | 'error'): ValidateFunction | undefined {
  if (!Object.hasOwn(SCHEMAS, kind)) return undefined;
  let v = compiled.get(kind);
  if (v === undefined) {
    v = compile(SCHEMAS[kind]);
    compiled.set(kind, v);
  }
  return v;
}

const UNLISTED_MESSAGE = 'field not in the contract (kept)';

function run(validate: ValidateFunction, value: unknown): ValidationResult {
  unlisted = [];
  const valid = validate(value);
  const found = unlisted;
  unlisted = [];
  if (!valid) return { ok: false, issues: toIssues(validate.errors ?? []) };
  return { ok: true, warnings: found.map((path) => ({ path, message: UNLISTED_MESSAGE })) };
}

/**
 * Validates a record of `kind` against the contract. Unlisted fields in listed objects are
 * warnings; issue paths are JSON Pointers into the record.
 */
export function validateRecord(kind: RecordKind, value: unknown): ValidationResult {
  const validate = validatorFor(kind);
  if (validate === undefined) throw new Error(`unknown record kind: ${String(kind)}`);
  return run(validate, value);
}

/** Validates an error body (SPEC part 7) the same way, for tests of the HTTP layer. */
export function validateErrorBody(value: unknown): ValidationResult {
  return run(validatorFor('error')!, value);
}
