import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CURRENCY_CODES, isCurrencyCode, readCurrencyExtension } from '../../src/contract/currencies.js';
import { fullAlert } from '../../src/contract/examples.js';
import { setAt } from '../support/json-pointer.js';
import { validateRecord } from '../../src/contract/validators.js';

const POINTER = '/transactions/0/transactionInfo/currencyCode';
const dir = mkdtempSync(join(tmpdir(), 'currency-codes-'));

function file(name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

describe('currency codes', () => {
  it('holds the built-in list of 5201 codes', () => {
    expect(CURRENCY_CODES.size).toBe(5201);
  });

  it.each(['USD', 'EUR', 'GBP', 'ETH', 'AE ', 'CMDX ', 'DС', '٨', 'HDP.Ф', '$ADS', 'USD+', 'DEFI++', '1INCH.E', 'POP!', 'LA VIDA'])(
    'accepts %j exactly as listed',
    (code) => {
      expect(isCurrencyCode(code)).toBe(true);
      expect(validateRecord('alert', setAt(fullAlert(), POINTER, code))).toEqual({ ok: true, warnings: [] });
    },
  );

  it.each(['usd', 'USD ', ' USD', 'AE  ', 'Dс', '$ads', 'USD-', 'HDP.F', '٨ ', '', 'LA  VIDA'])('rejects the near miss %j', (code) => {
    expect(isCurrencyCode(code)).toBe(false);
    expect(validateRecord('alert', setAt(fullAlert(), POINTER, code))).toEqual({
      ok: false,
      issues: [{ path: POINTER, message: 'must be a known currency code' }],
    });
  });

  it('accepts a null currency code and rejects a non-string one', () => {
    expect(validateRecord('alert', setAt(fullAlert(), POINTER, null)).ok).toBe(true);
    expect(validateRecord('alert', setAt(fullAlert(), POINTER, 840))).toEqual({
      ok: false,
      issues: [{ path: POINTER, message: 'must be a string or null' }],
    });
  });
});

describe('CURRENCY_CODES_FILE', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.resetModules();
  });

  it('reads a plain array, an "all" list and an "extra" list', () => {
    expect(readCurrencyExtension(file('a.json', '["NEW1", "NEW 2 "]'))).toEqual(['NEW1', 'NEW 2 ']);
    expect(readCurrencyExtension(file('b.json', '{"all": ["A1"], "extra": ["B1"]}'))).toEqual(['A1', 'B1']);
    expect(readCurrencyExtension(file('c.json', '{"extra": ["C1"]}'))).toEqual(['C1']);
  });

  it('refuses a file of the wrong shape with a message naming the variable', () => {
    expect(() => readCurrencyExtension(file('d.json', '{"codes": []}'))).toThrow(/CURRENCY_CODES_FILE/);
    expect(() => readCurrencyExtension(file('e.json', '[1, 2]'))).toThrow(/arrays of strings/);
    expect(() => readCurrencyExtension(file('f.json', 'not json'))).toThrow(/cannot read/);
    expect(() => readCurrencyExtension(join(dir, 'missing.json'))).toThrow(/cannot read/);
  });

  it('adds the operator codes to the accepted set without a code change', async () => {
    vi.stubEnv('CURRENCY_CODES_FILE', file('g.json', '{"extra": ["ZZTOP", "ünï "]}'));
    vi.resetModules();
    const currencies = await import('../../src/contract/currencies.js');
    const validators = await import('../../src/contract/validators.js');
    expect(currencies.isCurrencyCode('ZZTOP')).toBe(true);
    expect(currencies.isCurrencyCode('USD')).toBe(true);
    expect(currencies.CURRENCY_CODES.size).toBe(5203);
    expect(validators.validateRecord('alert', setAt(fullAlert(), POINTER, 'ünï ')).ok).toBe(true);
    expect(validators.validateRecord('alert', setAt(fullAlert(), POINTER, 'ünï')).ok).toBe(false);
  });

  it('fails to load when the file named is missing', async () => {
    vi.stubEnv('CURRENCY_CODES_FILE', join(dir, 'nope.json'));
    vi.resetModules();
    await expect(import('../../src/contract/currencies.js')).rejects.toThrow(/CURRENCY_CODES_FILE/);
  });

  it('leaves the built-in set alone when the variable is empty', async () => {
    vi.stubEnv('CURRENCY_CODES_FILE', '');
    vi.resetModules();
    const currencies = await import('../../src/contract/currencies.js');
    expect(currencies.CURRENCY_CODES.size).toBe(5201);
  });
});
