/** The cleaning of written log lines: API keys and secret-looking query parameters. */
import { describe, expect, it } from 'vitest';
import { createApiKey } from '../store/api-keys.js';
import { redactLogLine } from './log-redaction.js';
import type { Store } from '../store/store.js';

describe('redactLogLine', () => {
  it('keeps only the id of a key in the format createApiKey mints', async () => {
    const { key, record } = await createApiKey({ insertApiKey: async () => undefined } as unknown as Store, { project: 'p' });
    const line = JSON.stringify({ msg: `Route GET:/v1/x?q=${key} not found` });
    const out = redactLogLine(line);
    expect(out).not.toContain(key.slice(-43));
    expect(out).toContain(`crs_${record.id}_[redacted]`);
  });

  it('replaces the values of secret-looking parameters, and a quote cannot end a value early', () => {
    const line = JSON.stringify({ req: { url: '/v1/files/a?expires=1&sig=abc"def&Api%5FKey=k1&token=t1&limit=5' } });
    const out = redactLogLine(line);
    for (const secret of ['abc', 'def', 'k1', 't1']) expect(out).not.toContain(secret);
    expect(out).toContain('expires=1');
    expect(out).toContain('limit=5');
    expect(JSON.parse(out)).toBeTruthy();
  });
});
