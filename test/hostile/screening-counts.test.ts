/**
 * The alert list's summaries tell a key nothing of a class withheld from it: a key without
 * `screening:read`, whose alert reads carry `screeningProviderData: null`, finds no count of the
 * screening hits in the list either, in any encoding, and its page's ETag is its own view's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Scope } from '../../src/store/api-keys.js';
import { personalAlert } from '../support/personal-alert.js';
import { startTestService, type TestService } from '../support/test-service.js';

const PROJECT = 'proj-screening-counts';
const ALERT = '7a1e0000-0000-4000-8000-000000000001';
const alert = personalAlert(PROJECT, ALERT) as { screeningProviderData: { searchResult: { hits: unknown[] } } };
const HITS = alert.screeningProviderData.searchResult.hits.length;
const READS: Scope[] = ['alerts:read', 'pii:read', 'documents:read'];

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService([JSON.stringify({ kind: 'alert', record: alert })]);
});
afterAll(async () => svc?.close());

async function page(key: string, encoding: 'identity' | 'gzip' | 'br'): Promise<{ counts: Record<string, number>; etag: string }> {
  const res = await fetch(`${svc.url}/v1/alerts`, { headers: { authorization: `Bearer ${key}`, 'accept-encoding': encoding } });
  expect(res.status).toBe(200);
  // fetch decodes the gzip or br body it was sent.
  const body = await res.text();
  const [summary] = JSON.parse(body) as { counts: Record<string, number> }[];
  return { counts: summary!.counts, etag: res.headers.get('etag')! };
}

describe('screening hit counts in the alert list', () => {
  it('are shown with screening:read and withheld (0) without it, in every encoding', async () => {
    expect(HITS).toBeGreaterThan(0);
    const seeing = (await svc.key(PROJECT, { scopes: [...READS, 'screening:read'] })).key;
    const blind = (await svc.key(PROJECT, { scopes: READS })).key;
    for (const encoding of ['identity', 'gzip', 'br'] as const) {
      expect((await page(seeing, encoding)).counts.screeningHits, encoding).toBe(HITS);
      const withheld = await page(blind, encoding);
      expect(withheld.counts.screeningHits, encoding).toBe(0);
      // The other counts are of lists the key is shown.
      expect(withheld.counts.notes, encoding).toBe((await page(seeing, encoding)).counts.notes);
    }
    // The alert itself withholds the screening data whole, as the list now does its size.
    const read = (await (await fetch(`${svc.url}/v1/alerts/${ALERT}`, { headers: { authorization: `Bearer ${blind}` } })).json()) as Record<string, unknown>;
    expect(read.screeningProviderData).toBeNull();
    expect((await page(blind, 'identity')).etag).not.toBe((await page(seeing, 'identity')).etag);
  });
});
