/**
 * The currency code set (SPEC 2.1, transactionInfo.currencyCode). It is too long for an
 * enum in the OpenAPI document, so it is checked by the ajv format `currency-code`. Values
 * are compared exactly: some published codes carry `$`, `+`, dots, non-Latin letters or a
 * trailing space, and trimming would accept codes the contract does not list.
 *
 * Operators can add codes without a code change: env CURRENCY_CODES_FILE names a JSON file
 * holding an array of strings, or an object with an `all` and/or `extra` array.
 */
import { readFileSync } from 'node:fs';

interface CurrencyCodeFile {
  all: string[];
}

const BUILT_IN = JSON.parse(
  readFileSync(new URL('./data/currency-codes.json', import.meta.url), 'utf8'),
) as CurrencyCodeFile;

/** The codes listed in an operator's extension file (see the module comment for its shapes). */
export function readCurrencyExtension(file: string): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`CURRENCY_CODES_FILE ${file}: cannot read a JSON file (${(err as Error).message})`);
  }
  const lists: unknown[] = [];
  if (Array.isArray(parsed)) {
    lists.push(parsed);
  } else if (parsed !== null && typeof parsed === 'object') {
    const obj = parsed as Record<string, unknown>;
    if (obj.all !== undefined) lists.push(obj.all);
    if (obj.extra !== undefined) lists.push(obj.extra);
  }
  if (lists.length === 0) {
    throw new Error(`CURRENCY_CODES_FILE ${file}: expected a JSON array of strings or an object with an "all" or "extra" array`);
  }
  const codes: string[] = [];
  for (const list of lists) {
    if (!Array.isArray(list) || !list.every((c) => typeof c === 'string')) {
      throw new Error(`CURRENCY_CODES_FILE ${file}: "all"/"extra" must be arrays of strings`);
    }
    codes.push(...(list as string[]));
  }
  return codes;
}

function loadCodes(): ReadonlySet<string> {
  const codes = new Set<string>(BUILT_IN.all);
  const extension = process.env.CURRENCY_CODES_FILE;
  // Failing at load is deliberate: a misconfigured extension would otherwise reject every
  // record that uses the operator's codes, which is harder to diagnose.
  if (extension) for (const code of readCurrencyExtension(extension)) codes.add(code);
  return codes;
}

/** Every accepted currency code: the built-in list plus the operator's extension, if any. */
export const CURRENCY_CODES: ReadonlySet<string> = loadCodes();

/** True when `value` is exactly one of the accepted currency codes. */
export function isCurrencyCode(value: string): boolean {
  return CURRENCY_CODES.has(value);
}
