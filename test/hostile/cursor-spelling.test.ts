/**
 * Page cursors are accepted only as the service spelled them: base64url decoders are lenient
 * ('=' padding, '+' and '/', spare bits of the last character), so any other spelling of a
 * valid cursor's signature or payload is refused with the documented 400.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companyLine, executionLine } from '../support/records.js';
import { startTestService, type TestService } from '../support/test-service.js';

const P = 'proj-cursor';
const C = '0b5c2a4e-3d1f-4a6b-9c8d-7e6f5a4b3c2d';
const PAGES = 8;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

let svc: TestService;
let key: string;
beforeAll(async () => {
  svc = await startTestService([companyLine(P, C, 'f1e2d3c4-b5a6-4978-8a9b-0c1d2e3f4a5b'), ...Array.from({ length: PAGES + 1 }, (_, i) => executionLine(P, C, i))]);
  key = (await svc.key(P)).key;
});
afterAll(async () => svc?.close());

const page = (cursor?: string): Promise<Response> =>
  fetch(`${svc.url}/v1/customers/${C}/scenario-executions?limit=1${cursor === undefined ? '' : `&cursor=${encodeURIComponent(cursor)}`}`, {
    headers: { authorization: `Bearer ${key}` },
  });

/** Every cursor of a walk through the pages, one execution a page. */
async function cursors(): Promise<string[]> {
  const found: string[] = [];
  let cursor: string | undefined;
  for (;;) {
    const res = await page(cursor);
    await res.arrayBuffer();
    const link = res.headers.get('link');
    if (link === null) return found;
    cursor = new URL(link.slice(1, link.indexOf('>')), svc.url).searchParams.get('cursor')!;
    found.push(cursor);
  }
}

/** Spellings of `part` a lenient base64url decoder reads as the same bytes. */
function variants(part: string): string[] {
  const out = [`${part}=`, `${part}==`, part.replaceAll('-', '+'), part.replaceAll('_', '/')];
  // The last character of a length not a multiple of 4 carries spare low bits (4 for 2 bytes left, 2 for 1).
  const spare = part.length % 4 === 2 ? 4 : part.length % 4 === 3 ? 2 : 0;
  const last = ALPHABET.indexOf(part.at(-1)!);
  for (let bits = 1; bits < 1 << spare; bits++) out.push(part.slice(0, -1) + ALPHABET[last ^ bits]!);
  return [...new Set(out)].filter((v) => v !== part && Buffer.from(v, 'base64url').equals(Buffer.from(part, 'base64url')));
}

describe('cursor spelling', () => {
  it('refuses every other spelling of a valid cursor’s signature and payload with 400 invalid_request', async () => {
    const all = await cursors();
    expect(all).toHaveLength(PAGES);
    let tried = 0;
    let substituted = 0;
    for (const cursor of all) {
      expect((await page(cursor)).status).toBe(200);
      const [payload, signature] = cursor.split('.') as [string, string];
      const forged = [...variants(signature).map((s) => `${payload}.${s}`), ...variants(payload).map((p) => `${p}.${signature}`)];
      for (const f of forged) {
        const res = await page(f);
        expect(res.status, f).toBe(400);
        expect(await res.json()).toMatchObject({ code: 'invalid_request', issues: [{ message: expect.stringMatching(/^cursor:/) }] });
        tried++;
        if (/[+/]/.test(f)) substituted++;
      }
    }
    // The signature of SHA-256 (43 characters) always has spare bits; '+' and '/' turn up in some of the cursors.
    expect(tried).toBeGreaterThan(PAGES * 15);
    expect(substituted).toBeGreaterThan(0);
  });
});
