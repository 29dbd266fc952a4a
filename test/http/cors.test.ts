/** CORS answers only the configured origins. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companyLine } from '../support/records.js';
import { startTestService, type TestService } from '../support/test-service.js';

const C = '0b5c2a4e-3d1f-4a6b-9c8d-7e6f5a4b3c2d';
let svc: TestService;
let key: string;
beforeAll(async () => {
  svc = await startTestService([companyLine('p', C, 'f1e2d3c4-b5a6-4978-8a9b-0c1d2e3f4a5b')], { corsOrigins: ['https://backoffice.example'] });
  key = (await svc.key('p')).key;
});
afterAll(async () => svc?.close());

describe('CORS', () => {
  it('allows a listed origin, exposing the paging and caching headers', async () => {
    const res = await fetch(`${svc.url}/v1/companies/${C}/details`, { headers: { authorization: `Bearer ${key}`, origin: 'https://backoffice.example' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('https://backoffice.example');
    expect(res.headers.get('access-control-expose-headers')).toContain('Link');
  });

  it('answers a preflight from a listed origin and gives nothing to another', async () => {
    const ok = await fetch(`${svc.url}/v1/companies/${C}/details`, {
      method: 'OPTIONS',
      headers: { origin: 'https://backoffice.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
    });
    expect(ok.status).toBeLessThan(300);
    expect(ok.headers.get('access-control-allow-origin')).toBe('https://backoffice.example');
    const other = await fetch(`${svc.url}/v1/companies/${C}/details`, { headers: { authorization: `Bearer ${key}`, origin: 'https://evil.example' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });
});
