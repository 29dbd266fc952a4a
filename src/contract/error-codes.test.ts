/** The error code catalogue and its documentation. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, ServiceError } from './error-codes.js';
import { validateErrorBody } from './index.js';

describe('error codes', () => {
  it('lists every code with its status in docs/api.md', () => {
    const doc = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');
    for (const [code, { status }] of Object.entries(ERROR_CODES)) expect(doc).toContain(`| \`${code}\` | ${status} |`);
  });

  it('serialises every error as the contract error body', () => {
    for (const code of Object.keys(ERROR_CODES) as (keyof typeof ERROR_CODES)[]) {
      const body = new ServiceError(code, 'm', [{ message: 'x: y' }]).body();
      expect(validateErrorBody(body).ok).toBe(true);
      expect(Object.keys(body)).toEqual(['message', 'code', 'issues']);
    }
  });
});
