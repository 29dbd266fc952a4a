/** The cleaning of written log lines: API keys and secret-looking query parameters. */
import { describe, expect, it } from 'vitest';
import { createApiKey } from '../store/api-keys.js';
import { redactApiKeys, redactLogLine } from './log-redaction.js';
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

  it('finds a key whatever of it is percent-encoded, once or twice, and keeps its id readable', async () => {
    const { key, record } = await createApiKey({ insertApiKey: async () => undefined } as unknown as Store, { project: 'p' });
    const everyChar = [...key].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`).join('');
    for (const spelt of [key.replace(/_/g, '%255F'), everyChar, everyChar.replace(/%/g, '%25'), everyChar.toLowerCase()]) {
      const out = redactLogLine(JSON.stringify({ req: { url: `/v1/companies/${spelt}/details` } }));
      expect(out).toContain(`crs_${record.id}_[redacted]`);
      expect(decodeURIComponent(decodeURIComponent(out))).not.toContain(key.slice(-43));
    }
  });

  it('cuts a key a client sent as a record or request id to its id', async () => {
    const { key, record } = await createApiKey({ insertApiKey: async () => undefined } as unknown as Store, { project: 'p' });
    expect(redactApiKeys(key)).toBe(`crs_${record.id}_[redacted]`);
    expect(redactApiKeys('7e923580-b127-43b9-ad0f-874f58e97612')).toBe('7e923580-b127-43b9-ad0f-874f58e97612');
  });
});
