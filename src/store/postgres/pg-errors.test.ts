/** Which pg failures count as "store unavailable" (HTTP 503) and what callers get to see. */
import { describe, expect, it } from 'vitest';
import { StoreError, StoreUnavailableError } from '../store-errors.js';
import { isConnectionFailure, storeErrorFrom } from './pg-errors.js';

const withCode = (message: string, code: string): Error => Object.assign(new Error(message), { code });

describe('pg error translation', () => {
  it.each([
    ['a refused socket', withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')],
    ['a refused dual-stack connect', Object.assign(new AggregateError([withCode('x', 'ECONNREFUSED')], ''), {})],
    ['an admin shutdown', withCode('terminating connection due to administrator command', '57P01')],
    ['a server starting up', withCode('the database system is starting up', '57P03')],
    ['too many connections', withCode('sorry, too many clients already', '53300')],
    ['a statement timeout', withCode('canceling statement due to statement timeout', '57014')],
    ['a pool connect timeout', new Error('timeout exceeded when trying to connect')],
    ['a dropped socket', new Error('Connection terminated unexpectedly')],
    ['a pool already ended', new Error('Cannot use a pool after calling end on the pool')],
  ])('treats %s as unavailable', (_, err) => {
    expect(isConnectionFailure(err)).toBe(true);
    expect(storeErrorFrom(err, 'ping')).toBeInstanceOf(StoreUnavailableError);
  });

  it.each([
    ['a unique violation', withCode('duplicate key value violates unique constraint "api_keys_hash_key"', '23505')],
    ['a syntax error', withCode('syntax error at or near "SELEC"', '42601')],
    ['a programming error', new TypeError('x is not a function')],
  ])('treats %s as a plain store error', (_, err) => {
    expect(isConnectionFailure(err)).toBe(false);
    const wrapped = storeErrorFrom(err, 'writeBatch');
    expect(wrapped).toBeInstanceOf(StoreError);
    expect(wrapped).not.toBeInstanceOf(StoreUnavailableError);
    expect(wrapped.cause).toBe(err);
  });

  it('passes store errors through untouched', () => {
    const err = new StoreUnavailableError('down');
    expect(storeErrorFrom(err, 'ping')).toBe(err);
  });
});
