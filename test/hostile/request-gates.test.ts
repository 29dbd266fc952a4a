/**
 * Request gates: however a request spells its target or its method, the route it reaches decides
 * the access log entry, the security headers and the Accept check. Error answers keep nothing of an
 * answer they replace and quote no more than a short prefix of the request.
 */
import { METHODS } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateErrorBody } from '../../src/contract/index.js';
import type { AccessLogEntry } from '../../src/access-log/access-log.js';
import { loggedEntries as loggedEntriesOf } from '../support/access-log-entries.js';
import { alertLine, companyLine } from '../support/records.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { rawRequest, type RawResponse } from '../support/raw-http.js';

const P = 'proj-gates';
const C = '0b5c2a4e-3d1f-4a6b-9c8d-7e6f5a4b3c2d';
const A = 'aa5c2a4e-3d1f-4a6b-9c8d-7e6f5a4b3c2d';
/** Read by the 500 test alone: an answer kept from an earlier read is sent without signing anything. */
const UNREAD = '3c5c2a4e-3d1f-4a6b-9c8d-7e6f5a4b3c2d';
const ORIGIN = 'https://backoffice.example';
const COMPANY_ROUTE = '/v1/companies/:id/details';
const JSON_CSP = "default-src 'none'; frame-ancestors 'none'";

let svc: TestService;
let key: string;
let host: string;
beforeAll(async () => {
  svc = await startTestService([companyLine(P, C, 'f1e2d3c4-b5a6-4978-8a9b-0c1d2e3f4a5b'), companyLine(P, UNREAD, 'f1e2d3c4-b5a6-4978-8a9b-0c1d2e3f4a5b'), alertLine(P, A, C, 'e1e2d3c4-b5a6-4978-8a9b-0c1d2e3f4a5b')], { corsOrigins: [ORIGIN] });
  key = (await svc.key(P)).key;
  host = new URL(svc.url).host;
});
afterAll(async () => svc?.close());

let sequence = 0;
/** Sends `method target` as written, with the key and a fresh request id; returns the answer and that id. */
async function send(method: string, target: string, headers: string[] = []): Promise<RawResponse & { id: string }> {
  const id = `gate-${++sequence}`;
  const res = await rawRequest(svc.url, [`${method} ${target} HTTP/1.1`, `Authorization: Bearer ${key}`, `X-Request-Id: ${id}`, ...headers].join('\r\n'));
  return { ...res, id };
}

/** The access log entries of these request ids, once the batched writer has stored them all. */
function loggedEntries(ids: string[]): Promise<Map<string, AccessLogEntry>> {
  return loggedEntriesOf(svc.store, [P, ''], ids);
}

/** What every answer carries, whatever it reached. */
function expectSecurityHeaders(res: RawResponse & { id: string }, what: string): void {
  expect(res.headers['x-request-id'], what).toBe(res.id);
  expect(res.headers['x-content-type-options'], what).toBe('nosniff');
  expect(res.headers['referrer-policy'], what).toBe('no-referrer');
  expect(res.headers['content-security-policy'], what).toBe(JSON_CSP);
}

/** An error answer: the contract's body (for GET), never stored, with nothing of a success. */
function expectErrorAnswer(res: RawResponse, status: number, what: string): void {
  expect(res.status, what).toBe(status);
  expect(res.headers['cache-control'], what).toBe('no-store');
  for (const h of ['etag', 'last-modified', 'link', 'content-encoding']) expect(res.headers[h], `${what}: ${h}`).toBeUndefined();
  if (res.body !== '') expect(validateErrorBody(JSON.parse(res.body)).ok, what).toBe(true);
}

describe('request gates', () => {
  it('passes every spelling of a path that reaches a route through that route’s log, headers and Accept check', async () => {
    const spellings = [
      `/v1/companies/${C}/details`,
      `http://${host}/v1/companies/${C}/details`,
      `HTTP://${host.toUpperCase()}/v1/companies/${C}/details`,
      `/v1/%63ompanies/${C}/details`,
      `/%76%31/companies/${C}/details`,
      `/v1/companies/${C}/de%74ails`,
      `/v1/companies/${C}/details?`,
      `/v1/companies/${C}/details#x`,
      `/v1/companies/${C.toUpperCase()}/details`,
      `//v1/companies/${C}/details`,
      `/v1//companies/${C}/details`,
      `/V1/companies/${C}/details`,
      `/v1/Companies/${C}/details`,
      `/v1/companies/${C}/details/`,
      `/v1/companies/${C}/details%2F`,
      `/v1/./companies/${C}/details`,
      `/./v1/companies/${C}/details`,
      `/v1/x/../companies/${C}/details`,
      `/v1/companies/${C}/details;x`,
      `/v1/companies%2F${C}/details`,
      `*`,
    ];
    const routed: string[] = [];
    const expected = new Map<string, { status: number; route: string }>();
    for (const target of spellings) {
      for (const method of ['GET', 'HEAD']) {
        const what = `${method} ${target}`;
        const res = await send(method, target, ['Accept: application/json']);
        expectSecurityHeaders(res, what);
        expect([200, 404], what).toContain(res.status);
        if (res.status === 404) {
          expectErrorAnswer(res, 404, what);
          expected.set(res.id, { status: 404, route: 'unmatched' });
          continue;
        }
        routed.push(what);
        expected.set(res.id, { status: 200, route: COMPANY_ROUTE });
        const html = await send(method, target, ['Accept: text/html']);
        expectSecurityHeaders(html, `${what} (text/html)`);
        expectErrorAnswer(html, 406, `${what} (text/html)`);
        expected.set(html.id, { status: 406, route: COMPANY_ROUTE });
      }
    }
    // The spellings that do reach the route are exercised, not skipped.
    for (const target of spellings.slice(0, 9)) {
      expect(routed).toContain(`GET ${target}`);
      expect(routed).toContain(`HEAD ${target}`);
    }
    const logged = await loggedEntries([...expected.keys()]);
    for (const [id, want] of expected) expect(logged.get(id), id).toMatchObject(want);
  });

  it('refuses an absolute URL or authority naming another host, and logs the refusal', async () => {
    const targets = [`http://any.host/v1/companies/${C}/details`, `https://any.host/v1/companies/${C}/details`, `http://any.host@${host}/v1/companies/${C}/details`, `http://${new URL(svc.url).hostname}:1/v1/companies/${C}/details`];
    const ids: string[] = [];
    for (const target of targets) {
      const res = await send('GET', target, ['Accept: application/json']);
      expectSecurityHeaders(res, target);
      expectErrorAnswer(res, 400, target);
      expect(res.body).not.toContain('cmsProjectId');
      ids.push(res.id);
    }
    const connect = await send('CONNECT', 'any.host:443');
    expectErrorAnswer(connect, 400, 'CONNECT any.host:443');
    const logged = await loggedEntries(ids);
    for (const id of ids) expect(logged.get(id), id).toMatchObject({ status: 400, route: COMPANY_ROUTE });
  });

  it('logs a request whose URL the router cannot read as unmatched, with a key sent in it cut to its id', async () => {
    const { key: other, id: otherId } = await svc.key(P);
    const everyChar = [...other].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join('');
    const targets = [`/v1/companies/%ZZ/details`, `/v1/alerts/%C3`, `/v1/companies/%ED%A0%80/details`, `/v1/customers/${'a'.repeat(600)}/scenario-executions`, `/v1/nope%ZZ`];
    const ids: string[] = [];
    for (const target of targets) {
      const res = await send('GET', target, ['Accept: application/json']);
      expectSecurityHeaders(res, target);
      expectErrorAnswer(res, 400, target);
      ids.push(res.id);
    }
    const named = await send('GET', `/v1/companies/${other}/details`, ['Accept: application/json']);
    const encoded = await send('GET', `/v1/companies/${everyChar.replace(/%/g, '%25')}/details`, ['Accept: application/json']);
    const logged = await loggedEntries([...ids, named.id, encoded.id]);
    for (const id of ids) expect(logged.get(id), id).toMatchObject({ status: 400, route: 'unmatched' });
    expect(logged.get(named.id)).toMatchObject({ status: 404, route: COMPANY_ROUTE, recordId: `crs_${otherId}_[redacted]` });
    expect(logged.get(encoded.id)).toMatchObject({ status: 404, route: COMPANY_ROUTE, recordId: `crs_${otherId}_[redacted]` });
    expect(JSON.stringify([...logged.values()])).not.toContain(other.slice(-20));
  });

  it('answers every other method Node accepts with 405 and Allow on a known path (a POST one too), 404 elsewhere', async () => {
    for (const method of METHODS.filter((m) => m !== 'GET' && m !== 'HEAD')) {
      const known = await send(method, `/v1/alerts/${A}`);
      expectErrorAnswer(known, 405, `${method} known path`);
      expect(known.headers.allow, method).toBe('GET, HEAD');
      expect(JSON.parse(known.body)).toMatchObject({ code: 'method_not_allowed' });
      if (method !== 'POST') {
        for (const path of ['/v1/records', `/v1/customers/${C}/erase`]) {
          const write = await send(method, path);
          expectErrorAnswer(write, 405, `${method} ${path}`);
          expect(write.headers.allow, `${method} ${path}`).toBe('POST');
        }
      }
      const unknown = await send(method, '/v1/nothing-here');
      expectErrorAnswer(unknown, 404, `${method} unknown path`);
      expect(JSON.parse(unknown.body)).toMatchObject({ code: 'not_found' });
    }
  });

  it('answers an unknown expectation (417) and an HTTP/1.1 request without exactly one Host (400) with the error body, and logs them', async () => {
    /** Sends `lines` exactly as written (no Host added) and returns the answer's status line and body. */
    const exact = (lines: string[]): Promise<{ status: number; text: string }> =>
      new Promise((resolve, reject) => {
        const { hostname, port } = new URL(svc.url);
        const socket = connect({ host: hostname, port: Number(port) });
        const chunks: Buffer[] = [];
        socket.on('data', (c: Buffer) => chunks.push(c));
        socket.on('error', reject);
        socket.on('close', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: Number(text.split(' ')[1]), text });
        });
        socket.write(`${[...lines, 'Connection: close'].join('\r\n')}\r\n\r\n`);
      });
    const target = `GET /v1/companies/${C}/details HTTP/1.1`;
    const cases: [string[], number, string][] = [
      [[target, `Host: ${host}`, 'Expect: 200-ok', `Authorization: Bearer ${key}`, 'X-Request-Id: expect-1'], 417, 'expectation_failed'],
      [[target, `Authorization: Bearer ${key}`, 'X-Request-Id: nohost-1'], 400, 'invalid_request'],
      [[target, `Host: ${host}`, 'Host: other.example', `Authorization: Bearer ${key}`, 'X-Request-Id: twohosts-1'], 400, 'invalid_request'],
    ];
    for (const [lines, status, code] of cases) {
      const res = await exact(lines);
      expect(res.status, lines.join(' | ')).toBe(status);
      expect(res.text).toContain(`"code":"${code}"`);
      expect(res.text.toLowerCase()).toContain('x-content-type-options: nosniff');
    }
    expect((await exact([`GET /v1/companies/${C}/details HTTP/1.0`, `Authorization: Bearer ${key}`])).status).toBe(200);
    expect((await exact([target, `Host: ${host}`, 'Expect: 100-continue', `Authorization: Bearer ${key}`])).text).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 /);
    const logged = await loggedEntries(['expect-1', 'nohost-1', 'twohosts-1']);
    expect([...logged.values()].map((e) => e.status).sort()).toEqual([400, 400, 417]);
  });

  it("logs a valid key's refusals answered before the door (405, 406, no such route) under its project", async () => {
    const { key: own, id: ownId } = await svc.key(P);
    const asKey = async (method: string, target: string, headers: string[]): Promise<string> => {
      const id = `pre-door-${++sequence}`;
      await rawRequest(svc.url, [`${method} ${target} HTTP/1.1`, `Authorization: Bearer ${own}`, `X-Request-Id: ${id}`, ...headers].join('\r\n'));
      return id;
    };
    const ids = [await asKey('DELETE', `/v1/companies/${C}/details`, []), await asKey('GET', `/v1/companies/${C}/details`, ['Accept: text/html']), await asKey('GET', '/v1/nothing-here', [])];
    const logged = await loggedEntries(ids);
    expect(ids.map((id) => logged.get(id)?.status)).toEqual([405, 406, 404]);
    for (const id of ids) expect(logged.get(id), id).toMatchObject({ keyId: ownId, project: P });
  });

  it('still answers a CORS preflight from a listed origin', async () => {
    const res = await send('OPTIONS', `/v1/alerts/${A}`, [`Origin: ${ORIGIN}`, 'Access-Control-Request-Method: GET']);
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe(ORIGIN);
  });

  it('keeps Vary: Origin with CORS on, for 200, 304 and error answers', async () => {
    const get = (path: string, headers: Record<string, string> = {}): Promise<Response> =>
      fetch(`${svc.url}${path}`, { headers: { authorization: `Bearer ${key}`, origin: ORIGIN, ...headers } });
    const vary = (res: Response): string[] => (res.headers.get('vary') ?? '').toLowerCase().split(/\s*,\s*/);
    const ok = await get(`/v1/companies/${C}/details`);
    await ok.arrayBuffer();
    expect(ok.status).toBe(200);
    expect(vary(ok)).toEqual(expect.arrayContaining(['origin', 'accept-encoding']));
    const cached = await get(`/v1/companies/${C}/details`, { 'if-none-match': ok.headers.get('etag')! });
    expect(cached.status).toBe(304);
    expect(vary(cached)).toContain('origin');
    for (const [path, status] of [[`/v1/companies/nobody/details`, 404], [`/v1/alerts/not-a-uuid`, 400], [`/v1/companies/${C}/details?x=1`, 400]] as const) {
      const res = await get(path);
      await res.arrayBuffer();
      expect(res.status, path).toBe(status);
      expect(vary(res), path).toContain('origin');
    }
  });

  it('sends no validator, encoding or stored cacheability with a 500', async () => {
    const signUrl = svc.files.signUrl;
    svc.files.signUrl = () => {
      throw new Error('signer unavailable');
    };
    try {
      for (const encoding of ['identity', 'gzip']) {
        const res = await send('GET', `/v1/companies/${UNREAD}/details`, [`Accept-Encoding: ${encoding}`]);
        expectErrorAnswer(res, 500, `500 with ${encoding}`);
        expect(JSON.parse(res.body)).toMatchObject({ code: 'internal' });
      }
    } finally {
      svc.files.signUrl = signUrl;
    }
    // Every client error too: never stored by a cache.
    expectErrorAnswer(await send('GET', `/v1/companies/nobody/details`), 404, '404');
    expectErrorAnswer(await send('GET', `/v1/alerts/not-a-uuid`), 400, '400');
    expectErrorAnswer(await rawRequest(svc.url, `GET /v1/alerts/${A} HTTP/1.1`), 401, '401');
    // Refused by Node's parser before any route: the same promise.
    const overflow = await rawRequest(svc.url, `GET /v1/alerts/${A} HTTP/1.1\r\nX-Filler: ${'x'.repeat(20_000)}`);
    expectErrorAnswer(overflow, 431, '431');
    expect(overflow.headers['content-security-policy']).toBe(JSON_CSP);
  });

  it('quotes no more than a short prefix of the request in an error', async () => {
    const long = (c: string, n: number): string => c.repeat(n);
    const cases = [
      `/v1/companies/${long('a', 600)}/details`,
      `/v1/companies/${long('b', 300)}/details`,
      `/v1/alerts/${long('c', 600)}`,
      `/v1/companies/${long('d', 400)}%zz/details`,
      `/v1/${long('e', 600)}%zz`,
      `/v1/customers/${C}/scenario-executions?${long('f', 2000)}=1`,
      `/v1/customers/${C}/scenario-executions?limit=${long('9', 2000)}`,
    ];
    for (const target of cases) {
      const res = await send('GET', target);
      expect(res.status, target.slice(0, 40)).toBe(400);
      expect(validateErrorBody(JSON.parse(res.body)).ok).toBe(true);
      expect(res.body.length, target.slice(0, 40)).toBeLessThan(600);
      expect(res.body, target.slice(0, 40)).not.toMatch(/([a-f9])\1{130}/);
    }
  });
});
