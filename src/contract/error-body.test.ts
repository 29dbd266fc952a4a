import { describe, expect, it } from 'vitest';
import { validateErrorBody } from './validators.js';

describe('error body (SPEC part 7)', () => {
  it('accepts message, code and issues', () => {
    expect(validateErrorBody({ message: 'not found', code: 'NOT_FOUND', issues: [{ message: 'no such alert' }] })).toEqual({
      ok: true,
      warnings: [],
    });
  });

  it('rejects an issue without a message and a non-string code', () => {
    expect(validateErrorBody({ message: 'm', code: 404, issues: [{}] })).toEqual({
      ok: false,
      issues: [
        { path: '/code', message: 'must be a string' },
        { path: '/issues/0/message', message: 'is required' },
      ],
    });
  });

  it('warns about fields the contract does not list', () => {
    expect(validateErrorBody({ message: 'm', code: 'c', requestId: 'r' })).toEqual({
      ok: true,
      warnings: [{ path: '/requestId', message: 'field not in the contract (kept)' }],
    });
  });
});
