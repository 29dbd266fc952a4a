import { describe, expect, it } from 'vitest';
import { validateErrorBody } from './validators.js';

describe('error body (SPEC part 7)', () => {
  it('accepts message, code and issues', () => {
    expect(validateErrorBody({ message: 'not found', code: 'not_found', issues: [{ message: 'no such alert' }] })).toEqual({
      ok: true,
      warnings: [],
    });
  });

  it('rejects an issue without a message and a non-string code', () => {
    const result = validateErrorBody({ message: 'm', code: 404, issues: [{}] });
    expect(result.ok).toBe(false);
    expect(result.ok ? [] : result.issues.map((i) => i.path)).toEqual(['/code', '/issues/0/message']);
  });

  it('refuses a body without one of its three fields, as the service always sends them', () => {
    for (const missing of ['message', 'code', 'issues']) {
      const body: Record<string, unknown> = { message: 'm', code: 'internal', issues: [] };
      delete body[missing];
      expect(validateErrorBody(body), missing).toMatchObject({ ok: false, issues: [{ path: `/${missing}`, message: 'is required' }] });
    }
  });

  it('refuses a code outside the catalogue', () => {
    expect(validateErrorBody({ message: 'm', code: 'NOT_FOUND', issues: [] }).ok).toBe(false);
  });

  it('warns about fields the contract does not list', () => {
    expect(validateErrorBody({ message: 'm', code: 'internal', issues: [], requestId: 'r' })).toEqual({
      ok: true,
      warnings: [{ path: '/requestId', message: 'field not in the contract (kept)' }],
    });
  });
});
