/**
 * Input fuzzing: generated paths, query strings and headers. Every answer is a valid 200/304 or a
 * documented status with the contract's error body; never a 5xx, never a hang.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../src/contract/error-codes.js';
import { validateErrorBody } from '../../src/contract/index.js';
import { alertLine, companyLine, executionLine } from '../support/records.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { rawRequest, type RawResponse } from '../support/raw-http.js';

const RUNS = Number(process.env.HOSTILE_RUNS ?? 300);
const P = 'proj-fuzz';
const C = '0b5c2a4e-3d1f-4a6b-9c8d-7e6f5a4b3c2d';
const A = 'aa5c2a4e-3d1f-4a6b-9c8d-7e6f5a4b3c2d';
const DOCUMENTED = new Set([200, 304, 400, 401, 403, 404, 405, 406, 414, 429, 431]);

let svc: TestService;
let key: string;
/** A key that may erase, of another project: fuzzed erasures reach the operation and must leave this project's records alone. */
let eraser: string;
beforeAll(async () => {
  svc = await startTestService([companyLine(P, C, 'f1e2d3c4-b5a6-4978-8a9b-0c1d2e3f4a5b'), alertLine(P, A, C, 'e1e2d3c4-b5a6-4978-8a9b-0c1d2e3f4a5b'), executionLine(P, C, 1), executionLine(P, C, 2)]);
  key = (await svc.key(P)).key;
  eraser = (await svc.key(`${P}-other`, { scopes: ['records:erase'] })).key;
});
afterAll(async () => svc?.close());

/** The checks every answer must pass. */
function wellFormed(r: RawResponse): void {
  expect(r.status, r.body).toBeLessThan(500);
  expect(DOCUMENTED.has(r.status), `status ${r.status}`).toBe(true);
  if (r.status === 200 || r.status === 304 || r.body === '') return;
  const body = JSON.parse(r.body) as { code: string };
  expect(validateErrorBody(body).ok).toBe(true);
  expect(Object.keys(ERROR_CODES)).toContain(body.code);
  expect(r.body).not.toMatch(/at .*\.(ts|js):\d+|SELECT|sqlite|postgres/i);
}

const nasty = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }).map((s) => encodeURIComponent(s)),
  fc.constantFrom('%00', '%', '%zz', '%E0%A4%A', '..', '%2e%2e%2f', '..%2F..%2Fetc%2Fpasswd', '%2F', '\u0000'.replace('\u0000', '%00'), 'a'.repeat(600), C, C.toUpperCase(), A, '%C0%AE%C0%AE', '%u002e', '%%32%65'),
  fc.stringMatching(/^[A-Za-z0-9._~%-]{0,60}$/),
);
const queryValue = fc.oneof(
  nasty,
  fc.constantFrom('valid', 'asc', '50', '9'.repeat(40), '-1', '1e3', '2024-02-30', '2024-01-01T00:00:60Z', '+002024-01-01T00:00:00Z', ''),
  // Search text that is a query language elsewhere, and values valid for the lists.
  fc.constantFrom('%22acme%22', 'a*', 'NEAR(a%20b)', 'a%3Ab', '!%26%7C()', 'none', 'true', 'createdAt', 'Open', 'High', '0', '30'),
);
const queryKey = fc.oneof(
  fc.constantFrom('status', 'scenarioId', 'objectType', 'from', 'to', 'order', 'limit', 'cursor', 'status[]', '__proto__', 'constructor', 'api_key'),
  // The lists' and the feed's own parameters.
  fc.constantFrom('q', 'sort', 'severity', 'category', 'type', 'customerId', 'assignedTo', 'seen', 'createdFrom', 'createdTo', 'updatedFrom', 'updatedTo', 'onboardingLevel', 'riskScore', 'country', 'after', 'wait', 'dryRun'),
  nasty,
);
const queryString = fc.array(fc.tuple(queryKey, queryValue), { maxLength: 8 }).map((pairs) => pairs.map(([k, v]) => `${k}=${v}`).join('&'));
const route = fc.constantFrom('/v1/companies/ID/details', '/v1/customers/ID/scenario-executions', '/v1/customers/ID/erase', '/v1/alerts/ID', '/v1/files/ID', '/v1/ID', '/ID', '/v1/alerts', '/v1/alerts/counts', '/v1/companies', '/v1/changes');
const accept = fc.oneof(fc.constant(undefined), fc.constantFrom('application/json', 'text/html', '*/*', 'application/*;q=0', 'application/json;q=0, */*', 'image/png', '', ';;;', 'application/json;q=abc'));
const encoding = fc.oneof(fc.constant(undefined), fc.constantFrom('gzip', 'br', 'deflate', 'gzip;q=0', 'identity;q=0', '*', 'br;q=1, gzip;q=0.5', 'x'.repeat(300)));
const auth = fc.oneof(fc.constant('GOOD'), fc.constant('ERASER'), fc.constant(undefined), fc.constantFrom('Bearer', 'Bearer ', 'bearer GOOD', 'Basic abc', 'Bearer crs_x_y', 'Bearer GOOD extra', `Bearer ${'a'.repeat(5000)}`), fc.string({ maxLength: 60 }).map((s) => `Bearer ${s.replace(/[\r\n]/g, '')}`));

describe('input fuzzing', () => {
  it('answers any generated request with a documented status and body, promptly', async () => {
    await fc.assert(
      fc.asyncProperty(route, nasty, queryString, accept, encoding, auth, fc.constantFrom('GET', 'HEAD', 'POST', 'DELETE', 'OPTIONS'), async (r, id, qs, acc, enc, au, method) => {
        const path = r.replace('ID', id) + (qs === '' ? '' : `?${qs}`);
        const headers: string[] = [];
        if (acc !== undefined) headers.push(`Accept: ${acc}`);
        if (enc !== undefined) headers.push(`Accept-Encoding: ${enc}`);
        if (au !== undefined) headers.push(`Authorization: ${au === 'GOOD' ? `Bearer ${key}` : au === 'ERASER' ? `Bearer ${eraser}` : au.replace('GOOD', key)}`);
        const res = await rawRequest(svc.url, [`${method} ${path} HTTP/1.1`, ...headers].join('\r\n'));
        wellFormed(res);
        if (method === 'HEAD') expect(res.body).toBe('');
      }),
      { numRuns: RUNS },
    );
  });

  it('keeps answering valid requests correctly after the fuzzing, every record of the project still there', async () => {
    // The other project's eraser reaches the operation, and finds nothing of this project to erase.
    const erased = await fetch(`${svc.url}/v1/customers/${C}/erase`, { method: 'POST', headers: { authorization: `Bearer ${eraser}` } });
    expect(erased.status).toBe(200);
    expect(await erased.json()).toMatchObject({ customerId: C, customers: 0, executions: 0, alerts: 0 });
    const res = await fetch(`${svc.url}/v1/alerts/${A}`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    expect((await fetch(`${svc.url}/v1/companies/${C}/details`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
    const executions = await fetch(`${svc.url}/v1/customers/${C}/scenario-executions`, { headers: { authorization: `Bearer ${key}` } });
    expect(((await executions.json()) as unknown[]).length).toBe(2);
  });
});
