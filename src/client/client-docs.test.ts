import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createClient } from './client.js';

describe('the typed client in docs/api.md', () => {
  it('names every method of the client, the list and feed iterators included', () => {
    const doc = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');
    const methods = Object.keys(createClient({ baseUrl: 'http://127.0.0.1:1/v1', apiKey: 'unused' }));
    expect(methods).toEqual(expect.arrayContaining(['iterateAlerts', 'iterateCompanies', 'iterateChanges', 'followChanges']));
    for (const name of methods) expect(doc, name).toContain(`\`${name}(`);
  });
});
