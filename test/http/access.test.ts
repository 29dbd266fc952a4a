/** Who may read what: keys, scopes, revocation, expiry and rate limits, over real HTTP. */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggedEntries } from '../support/access-log-entries.js';
import { alertLine, companyLine } from '../support/records.js';
import { startTestService, type TestService } from '../support/test-service.js';

const P = 'proj-a';
const COMPANY = '0b5c2a4e-3d1f-4a6b-9c8d-7e6f5a4b3c2d';
const ALERT = 'aa5c2a4e-3d1f-4a6b-9c8d-7e6f5a4b3c2d';
const FILE = 'f1e2d3c4-b5a6-4978-8a9b-0c1d2e3f4a5b';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService([companyLine(P, COMPANY, FILE), alertLine(P, ALERT, COMPANY, FILE)], { rateBurst: 5, ratePerSecond: 0.5 });
});
afterAll(async () => svc?.close());

const alertUrl = (): string => `${svc.url}/v1/alerts/${ALERT}`;

async function status(headers: Record<string, string>): Promise<{ status: number; body: { code: string; message: string }; res: Response }> {
  const res = await fetch(alertUrl(), { headers });
  return { status: res.status, body: (await res.json()) as { code: string; message: string }, res };
}

describe('authentication', () => {
  it('answers 401 with a Bearer challenge when no key is sent', async () => {
    const r = await status({});
    expect(r.status).toBe(401);
    expect(r.body.code).toBe('unauthorized');
    expect(r.res.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  it('answers 401 to a wrong key, a malformed header and a key in another scheme', async () => {
    const { key } = await svc.key(P);
    const wrong = key.slice(0, -2) + (key.endsWith('AA') ? 'BB' : 'AA');
    for (const h of [`Bearer ${wrong}`, 'Bearer', `Basic ${Buffer.from(`x:${key}`).toString('base64')}`, key]) {
      expect((await status({ authorization: h })).status, h).toBe(401);
    }
  });

  it('refuses a revoked key on the very next request', async () => {
    const { key, id } = await svc.key(P);
    expect((await status({ authorization: `Bearer ${key}` })).status).toBe(200 as number);
    expect(await svc.store.revokeApiKey(id, new Date().toISOString())).toBe(true);
    const r = await status({ authorization: `Bearer ${key}` });
    expect(r.status).toBe(401);
    expect(r.body.message).toMatch(/revoked/);
  });

  it('refuses an expired key', async () => {
    const { key } = await svc.key(P, { expiresAt: '2020-01-01T00:00:00.000Z' });
    const r = await status({ authorization: `Bearer ${key}` });
    expect(r.status).toBe(401);
    expect(r.body.message).toMatch(/expired/);
  });

  it('answers 403 forbidden to a key without the route’s scope', async () => {
    const { key } = await svc.key(P, { scopes: ['companies:read'] });
    const r = await status({ authorization: `Bearer ${key}` });
    expect(r.status).toBe(403);
    expect(r.body.code).toBe('forbidden');
    expect((await fetch(`${svc.url}/v1/companies/${COMPANY}/details`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
  });
});

describe('rate limits', () => {
  it('answers 429 with Retry-After past the burst, per key', async () => {
    const { key } = await svc.key(P);
    const { key: other } = await svc.key(P);
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 7; i++) {
      last = await fetch(alertUrl(), { headers: { authorization: `Bearer ${key}` } });
      statuses.push(last.status);
    }
    expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(statuses[6]).toBe(429);
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(last!.headers.get('ratelimit-remaining')).toBe('0');
    expect(((await last!.json()) as { code: string }).code).toBe('rate_limited');
    expect((await fetch(alertUrl(), { headers: { authorization: `Bearer ${other}` } })).status).toBe(200);
  });
});

describe('signed document URLs', () => {
  async function signedUrl(): Promise<string> {
    const { key } = await svc.key(P);
    const res = await fetch(`${svc.url}/v1/companies/${COMPANY}/details`, { headers: { authorization: `Bearer ${key}` } });
    return ((await res.json()) as { documents: { document: { presignedUrl: string } }[] }).documents[0]!.document.presignedUrl;
  }

  it('downloads the file with its mimetype and filename, without an API key', async () => {
    await svc.files.putBytes(P, FILE, Buffer.from('%PDF-1.4\n%%EOF\n'));
    const res = await fetch(await signedUrl());
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toContain('certificate');
    expect(await res.text()).toBe('%PDF-1.4\n%%EOF\n');
  });

  it('logs a whole download as 200 though its client closes at the last byte, and one cut short as 499', async () => {
    const bytes = Buffer.alloc(300_000, 7);
    await svc.files.putBytes(P, FILE, bytes);
    const url = new URL(await signedUrl());
    /** Reads the answer's head and `take` bytes of its body, then closes the connection at once, as curl does at the last byte. */
    const download = (id: string, take: number): Promise<number> =>
      new Promise((resolve, reject) => {
        const socket = connect({ host: url.hostname, port: Number(url.port) });
        let got = Buffer.alloc(0);
        socket.on('error', reject);
        socket.on('data', (c: Buffer) => {
          got = Buffer.concat([got, c]);
          const head = got.indexOf('\r\n\r\n');
          if (head >= 0 && got.length - head - 4 >= take) {
            socket.destroy();
            resolve(got.length - head - 4);
          }
        });
        socket.write(`GET ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\nX-Request-Id: ${id}\r\n\r\n`);
      });
    const whole = Array.from({ length: 12 }, (_, i) => `whole-${i}`);
    for (const id of whole) expect(await download(id, bytes.length)).toBe(bytes.length);
    await download('cut-0', 1000);
    const want = new Map([...whole.map((id) => [id, 200] as const), ['cut-0', 499] as const]);
    const found = await loggedEntries(svc.store, [P], [...want.keys()]);
    expect(Object.fromEntries([...found].map(([id, e]) => [id, e.status]))).toEqual(Object.fromEntries(want));
  });

  it("logs a download of a missing file under the file's project, whatever API key the request also carries", async () => {
    const url = await signedUrl();
    await svc.files.remove(P, FILE);
    const other = await svc.key('proj-other-keys');
    const res = await fetch(url, { headers: { authorization: `Bearer ${other.key}`, 'x-request-id': 'missing-file-0' } });
    expect(res.status).toBe(404);
    const logged = async (project: string): Promise<number> =>
      (await svc.store.queryAccessLog({ project, limit: 1000 })).filter((e) => e.requestId === 'missing-file-0').length;
    for (let i = 0; i < 100 && (await logged(P)) === 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(await logged(P)).toBe(1);
    expect(await logged('proj-other-keys')).toBe(0);
  });

  it('answers 403 when any byte of the URL is changed', async () => {
    const url = new URL(await signedUrl());
    const sig = url.searchParams.get('sig')!;
    const tampered = [
      (() => { const u = new URL(url); u.searchParams.set('sig', (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1)); return u; })(),
      (() => { const u = new URL(url); u.searchParams.set('expires', String(Number(u.searchParams.get('expires')) + 60)); return u; })(),
      (() => { const u = new URL(url); u.searchParams.set('filename', 'other.pdf'); return u; })(),
    ];
    for (const u of tampered) {
      const res = await fetch(u);
      expect(res.status, u.toString()).toBe(403);
      expect(((await res.json()) as { code: string }).code).toBe('forbidden');
    }
  });

  it('answers 403 once the URL has expired', async () => {
    const url = new URL(await signedUrl());
    // Signed long enough ago that even the expiry rounded up to its bucket has passed.
    const signedAt = Date.now() - (900 + 120) * 1000;
    const expired = svc.files.signUrl({ project: P, objectKey: FILE, filename: url.searchParams.get('filename')!, mimetype: 'application/pdf' }, signedAt);
    expect(Number(new URL(expired).searchParams.get('expires'))).toBeLessThan(Date.now() / 1000);
    expect((await fetch(expired)).status).toBe(403);
  });

  it('answers 404 for a validly signed URL of a missing file, and never serves outside the store', async () => {
    const missing = svc.files.signUrl({ project: P, objectKey: '00000000-0000-4000-8000-00000000beef' }, Date.now());
    expect((await fetch(missing)).status).toBe(404);
    for (const path of ['/v1/files/..%2F..%2Fetc%2Fpasswd', '/v1/files/%2e%2e', '/v1/files/..', `/v1/files/${P}/..%2F..%2Fetc%2Fpasswd`, `/v1/files/..%2F..%2Fetc/passwd`, '/v1/files/%2e%2e/%2e%2e']) {
      const res = await fetch(`${svc.url}${path}?expires=9999999999&sig=${'A'.repeat(43)}`);
      expect([403, 404]).toContain(res.status);
      expect(await res.text()).not.toContain('root:');
    }
  });
});
