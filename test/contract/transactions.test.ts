import { describe, expect, it } from 'vitest';
import { fullAlert } from '../../src/contract/examples.js';
import { deleteAt, setAt } from '../support/json-pointer.js';
import { validateRecord } from '../../src/contract/validators.js';

const ok = { ok: true, warnings: [] };
const check = (record: unknown) => validateRecord('alert', record);
const TX = '/transactions/0';
const INFO = `${TX}/transactionInfo`;

describe('alert transactions (SPEC 2.4.4)', () => {
  it.each(['id', 'transactionDate', 'transactionType', 'customerId', 'transactionInfo'])(
    'accepts null for %s and leaves it optional',
    (field) => {
      expect(check(setAt(fullAlert(), `${TX}/${field}`, null))).toEqual(ok);
      expect(check(deleteAt(fullAlert(), `${TX}/${field}`))).toEqual(ok);
    },
  );

  it.each(['hash', 'blockchainChainId', 'direction', 'amount', 'currencyCode', 'hashUrl', 'transactionAmounts'])(
    'accepts null for transactionInfo.%s and leaves it optional',
    (field) => {
      expect(check(setAt(fullAlert(), `${INFO}/${field}`, null))).toEqual(ok);
      expect(check(deleteAt(fullAlert(), `${INFO}/${field}`))).toEqual(ok);
    },
  );

  it('accepts a null fieldName in transactionAmounts', () => {
    expect(check(setAt(fullAlert(), `${INFO}/transactionAmounts/0/fieldName`, null))).toEqual(ok);
  });

  it('keeps the fields the spec does not show without warning', () => {
    let record = setAt(fullAlert(), `${TX}/status`, 'settled');
    record = setAt(record, `${INFO}/fromAddress`, '0x1');
    record = setAt(record, `${INFO}/transactionAmounts/0/usdValue`, 12.5);
    expect(check(record)).toEqual(ok);
  });

  it('checks the listed fields: date-time, uuid, direction, amount type', () => {
    expect(check(setAt(fullAlert(), `${TX}/transactionDate`, '2024-03-01')).ok).toBe(false);
    expect(check(setAt(fullAlert(), `${TX}/customerId`, 'c-1')).ok).toBe(false);
    expect(check(setAt(fullAlert(), `${INFO}/direction`, 'in')).ok).toBe(false);
    expect(check(setAt(fullAlert(), `${INFO}/amount`, 1.5))).toEqual({
      ok: false,
      issues: [{ path: `${INFO}/amount`, message: 'must be a string or null' }],
    });
  });
});
