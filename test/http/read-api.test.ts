/** The three read operations over real HTTP on the SQLite store. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateRecord } from '../../src/contract/index.js';
import { alertLine, companyLine, executionLine, individualLine } from '../support/records.js';
import { clearOfSigningRollover } from '../support/signing-bucket.js';
import { startTestService, type TestService } from '../support/test-service.js';

const A = 'proj-a';
const B = 'proj-b';
const COMPANY = '0B5C2A4E-3D1F-4A6B-9C8D-7E6F5A4B3C2D';
const COMPANY_B = '1b5c2a4e-3d1f-4a6b-9c8d-7e6f5a4b3c2d';
const PERSON = '2c5c2a4e-3d1f-4a6b-9c8d-7e6f5a4b3c2d';
const ALERT = 'aa5c2a4e-3d1f-4a6b-9c8d-7e6f5a4b3c2d';
const ALERT_B = 'bb5c2a4e-3d1f-4a6b-9c8d-7e6f5a4b3c2d';
const FILE_KEY = 'f1e2d3c4-b5a6-4978-8a9b-0c1d2e3f4a5b';
const NOTE_FILE_KEY = 'e1e2d3c4-b5a6-4978-8a9b-0c1d2e3f4a5b';
const EXECUTIONS = 300;

let svc: TestService;
let keyA: string;
let keyB: string;
const lines = [
  companyLine(A, COMPANY, FILE_KEY),
  companyLine(B, COMPANY_B, FILE_KEY),
  individualLine(A, PERSON),
  alertLine(A, ALERT, COMPANY, NOTE_FILE_KEY),
  alertLine(B, ALERT_B, COMPANY_B, NOTE_FILE_KEY),
  ...Array.from({ length: EXECUTIONS }, (_, i) => executionLine(A, COMPANY.toLowerCase(), i)),
  executionLine(B, COMPANY_B, 0),
];

beforeAll(async () => {
  svc = await startTestService(lines);
  keyA = (await svc.key(A)).key;
  keyB = (await svc.key(B)).key;
  await svc.files.putBytes(A, FILE_KEY, Buffer.from('%PDF-1.4 test file\n%%EOF\n'));
});
afterAll(async () => svc?.close());

async function get(path: string, key: string | undefined = keyA, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${svc.url}${path}`, { headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers } });
}

/** A record with its document URLs blanked, for comparing with what was imported. */
function withoutUrls(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value), (k, v: unknown) => (k === 'presignedUrl' ? '<url>' : v));
}

function imported(i: number): unknown {
  return JSON.parse(lines[i]!).record;
}

describe('company details', () => {
  it('imports every fixture line', () => {
    expect(svc.summary).toMatchObject({ read: lines.length, stored: lines.length, rejected: 0 });
  });

  it('returns the company as imported, valid under the contract, with a fresh signed URL', async () => {
    const res = await get(`/v1/companies/${COMPANY}/details`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await res.json()) as { documents: { document: { presignedUrl: string } }[] };
    expect(validateRecord('customer', body).ok).toBe(true);
    expect(withoutUrls(body)).toEqual(withoutUrls(imported(0)));
    const url = body.documents[0]!.document.presignedUrl;
    expect(url).not.toContain('stored.example');
    expect(url.startsWith(`${svc.url}/v1/files/${A}/${FILE_KEY}?`)).toBe(true);
  });

  it('finds a company by its uuid in either case and keeps the case it was given', async () => {
    const res = await get(`/v1/companies/${COMPANY.toLowerCase()}/details`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { id: string }).id).toBe(COMPANY);
  });

  it('answers 404 for an individual customer, an unknown id and another project’s company alike', async () => {
    const bodies = [];
    for (const id of [PERSON, '00000000-0000-4000-8000-000000000000', COMPANY_B]) {
      const res = await get(`/v1/companies/${id}/details`);
      expect(res.status).toBe(404);
      bodies.push(await res.json());
    }
    expect(bodies[0]).toEqual({ message: 'no company with this id', code: 'not_found', issues: [] });
    expect(bodies[1]).toEqual(bodies[0]);
    expect(bodies[2]).toEqual(bodies[0]);
  });
});

describe('alert', () => {
  it('returns the alert as imported with a signed note document URL', async () => {
    const res = await get(`/v1/alerts/${ALERT}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { notes: { documents: { presignedUrl: string }[] }[] };
    expect(validateRecord('alert', body).ok).toBe(true);
    expect(withoutUrls(body)).toEqual(withoutUrls(imported(3)));
    expect(body.notes[0]!.documents[0]!.presignedUrl).toContain(`/v1/files/${A}/${NOTE_FILE_KEY}?`);
  });

  it('rejects an alert id that is not a uuid with 400 naming the parameter', async () => {
    const res = await get('/v1/alerts/not-a-uuid');
    expect(res.status).toBe(400);
    const body = (await res.json()) as { code: string; issues: { message: string }[] };
    expect(body.code).toBe('invalid_request');
    expect(body.issues[0]!.message).toMatch(/^id: must be a uuid/);
  });

  it('answers 404 for another project’s alert exactly as for a missing one', async () => {
    const other = await get(`/v1/alerts/${ALERT_B}`);
    const missing = await get('/v1/alerts/00000000-0000-4000-8000-000000000000');
    expect(other.status).toBe(404);
    expect(await other.json()).toEqual(await missing.json());
  });
});

describe('conditional requests and encodings', () => {
  it('answers 304 with no body to If-None-Match with the ETag', async () => {
    await clearOfSigningRollover(); // the alert's note holds a document
    const first = await get(`/v1/alerts/${ALERT}`);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[^"]+"$/);
    expect(first.headers.get('cache-control')).toBe('no-store');
    const again = await get(`/v1/alerts/${ALERT}`, keyA, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
  });

  it('answers 304 to the ETag of the same content in another encoding, and 200 to any other tag that starts like it', async () => {
    await clearOfSigningRollover(); // the alert's note holds a document
    const etag = (await get(`/v1/alerts/${ALERT}`)).headers.get('etag')!.slice(1, -1).replace(/-(gz|br)$/, '');
    for (const held of [`"${etag}"`, `"${etag}-gz"`, `W/"${etag}-br"`]) expect((await get(`/v1/alerts/${ALERT}`, keyA, { 'if-none-match': held })).status, held).toBe(304);
    for (const held of [`"${etag}-anything"`, `"${etag}-"`, `"${etag}x"`]) expect((await get(`/v1/alerts/${ALERT}`, keyA, { 'if-none-match': held })).status, held).toBe(200);
  });

  it('serves gzip and br bodies that decode to the identity body', async () => {
    await clearOfSigningRollover(); // the alert's note holds a document
    const plain = await (await get(`/v1/alerts/${ALERT}`)).text();
    for (const enc of ['gzip', 'br']) {
      const res = await get(`/v1/alerts/${ALERT}`, keyA, { 'accept-encoding': enc });
      expect(res.headers.get('content-encoding')).toBe(enc);
      expect(await res.text()).toBe(plain); // fetch decodes
    }
  });

  it('answers HEAD like GET without a body', async () => {
    const res = await fetch(`${svc.url}/v1/alerts/${ALERT}`, { method: 'HEAD', headers: { authorization: `Bearer ${keyA}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBeTruthy();
    expect(await res.text()).toBe('');
  });
});

describe('errors', () => {
  it('answers 405 with Allow to other methods', async () => {
    const res = await fetch(`${svc.url}/v1/alerts/${ALERT}`, { method: 'DELETE', headers: { authorization: `Bearer ${keyA}` } });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
    expect(((await res.json()) as { code: string }).code).toBe('method_not_allowed');
  });

  it('answers 406 when Accept excludes JSON', async () => {
    const res = await get(`/v1/alerts/${ALERT}`, keyA, { accept: 'text/html' });
    expect(res.status).toBe(406);
    expect(((await res.json()) as { code: string }).code).toBe('not_acceptable');
  });

  it('answers a malformed percent-encoding in the path with the error body', async () => {
    const res = await get('/v1/companies/%/details');
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'invalid_request' });
  });

  it('answers 404 not_found for an unknown route', async () => {
    const res = await get('/v1/nothing-here');
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: 'not_found', issues: [] });
  });

  it('echoes a sane X-Request-Id and makes one otherwise', async () => {
    expect((await get(`/v1/alerts/${ALERT}`, keyA, { 'x-request-id': 'trace-123' })).headers.get('x-request-id')).toBe('trace-123');
    const made = (await get(`/v1/alerts/${ALERT}`, keyA, { 'x-request-id': 'bad id with spaces' })).headers.get('x-request-id');
    expect(made).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('a key of project B', () => {
  it('gets 404 for every record of project A on every route', async () => {
    for (const path of [`/v1/companies/${COMPANY}/details`, `/v1/alerts/${ALERT}`, `/v1/customers/${PERSON}/scenario-executions`]) {
      const res = await get(path, keyB);
      expect(res.status, path).toBe(404);
      expect(((await res.json()) as { code: string }).code).toBe('not_found');
    }
  });

  it('sees only its own execution of a customer id both projects use', async () => {
    const res = await get(`/v1/customers/${COMPANY_B}/scenario-executions`, keyB);
    expect(res.status).toBe(200);
    const items = (await res.json()) as { execution_id: string }[];
    expect(items.map((e) => e.execution_id)).toEqual(['exec-0000']);
  });
});

describe('hardening headers', () => {
  it('sends no X-Powered-By, a strict CSP on JSON and no CORS headers unless configured', async () => {
    const res = await get(`/v1/alerts/${ALERT}`, keyA, { origin: 'https://evil.example' });
    expect(res.headers.get('x-powered-by')).toBeNull();
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('answers 405 to PUT on a record path', async () => {
    const res = await fetch(`${svc.url}/v1/companies/${COMPANY}/details`, { method: 'PUT', headers: { authorization: `Bearer ${keyA}` } });
    expect(res.status).toBe(405);
  });
});
