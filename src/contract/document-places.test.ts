import type { TSchema } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { Alert } from './alert.js';
import { CompanyDetails } from './company.js';
import { ALERT_DOCUMENT_PATHS, COMPANY_DOCUMENT_PATHS } from './document-places.js';

const DOCUMENT_TITLES = new Set(['StoredFile', 'AlertDocument']);

/** Every path in a schema to an object titled as a document file, `[]` for array items. */
function documentPaths(schema: TSchema, at: string[] = []): string[][] {
  if (typeof schema.title === 'string' && DOCUMENT_TITLES.has(schema.title)) return [at];
  const out: string[][] = [];
  const props = schema.properties as Record<string, TSchema> | undefined;
  for (const [name, sub] of Object.entries(props ?? {})) out.push(...documentPaths(sub, [...at, name]));
  if (schema.items !== undefined) out.push(...documentPaths(schema.items as TSchema, [...at, '[]']));
  for (const k of ['anyOf', 'oneOf', 'allOf'] as const) for (const sub of (schema[k] as TSchema[] | undefined) ?? []) out.push(...documentPaths(sub, at));
  return out;
}

describe('document places', () => {
  it('are exactly the places of StoredFile in a company and of AlertDocument in an alert', () => {
    const key = (paths: readonly (readonly string[])[]): string[] => paths.map((p) => p.join('.')).sort();
    expect(key(COMPANY_DOCUMENT_PATHS)).toEqual(key(documentPaths(CompanyDetails)));
    expect(key(ALERT_DOCUMENT_PATHS)).toEqual(key(documentPaths(Alert)));
  });
});
