/** docs/data-protection.md prints the classified fields exactly as src/contract/field-classes.ts lists them. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ALERT_FIELDS, ALERT_SUMMARY_FIELDS, COMPANY_FIELDS, EXECUTION_FIELDS } from '../../src/contract/field-classes.js';
import { fieldTable } from '../support/field-table.js';

describe('the printed list of classified fields', () => {
  const doc = readFileSync(new URL('../../docs/data-protection.md', import.meta.url), 'utf8');
  it.each([
    ['company', COMPANY_FIELDS],
    ['alert', ALERT_FIELDS],
    ['alert summary', ALERT_SUMMARY_FIELDS],
    ['execution', EXECUTION_FIELDS],
  ] as const)('prints every %s field with its class and mask', (_, fields) => {
    expect(doc).toContain(fieldTable(fields));
  });
});
