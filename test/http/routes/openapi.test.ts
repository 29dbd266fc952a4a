import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../../../src/http/openapi/openapi-document.js';
import { startTestServer, type TestServer } from '../../support/openapi-server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server?.close();
});

/** Every `src` and `href` attribute value of an HTML page. */
function assetReferences(html: string): string[] {
  return [...html.matchAll(/\b(?:src|href)\s*=\s*["']([^"']*)["']/gi)].map((m) => m[1]!);
}

describe('GET {base}/openapi.json', () => {
  it('serves the generated document without an API key, as JSON', async () => {
    const response = await fetch(`${server.baseUrl}/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('x-request-id')).toBeTruthy();
    expect(await response.json()).toEqual(openApiDocument({ basePath: '/v1', version: '0.0.0-test' }));
  });

  it('answers a browser navigation (Accept: text/html, */*) too', async () => {
    const response = await fetch(`${server.baseUrl}/openapi.json`, {
      headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' },
    });
    expect(response.status).toBe(200);
    await response.arrayBuffer();
  });

  it('answers 304 to a matching If-None-Match', async () => {
    const first = await fetch(`${server.baseUrl}/openapi.json`);
    const etag = first.headers.get('etag')!;
    await first.arrayBuffer();
    expect(etag).toMatch(/^".+"$/);
    const again = await fetch(`${server.baseUrl}/openapi.json`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
  });
});

describe('GET /docs', () => {
  it('serves an HTML page whose scripts, styles and icons all come from the service', async () => {
    const response = await fetch(`${server.origin}/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await response.text();
    const refs = assetReferences(html);
    expect(refs.length).toBeGreaterThanOrEqual(5);
    expect(refs.some((r) => r.endsWith('swagger-ui-bundle.js'))).toBe(true);
    for (const ref of refs) {
      const url = new URL(ref, `${server.origin}/docs`);
      expect(url.origin, ref).toBe(server.origin);
      const asset = await fetch(url);
      expect(asset.status, ref).toBe(200);
      const type = asset.headers.get('content-type') ?? '';
      // Read every body: an unread one keeps its connection busy and stalls the server's close.
      const text = await asset.text();
      if (ref.endsWith('.js')) expect(type, ref).toMatch(/javascript/);
      if (ref.endsWith('.css')) {
        expect(type, ref).toMatch(/^text\/css/);
        // Stylesheets could still pull fonts or images from elsewhere: only data: URLs are allowed.
        for (const m of text.matchAll(/url\(\s*["']?([^"')\s]+)/g)) expect(m[1], ref).toMatch(/^data:/);
      }
    }
  });

  it('holds the browser to this origin with a Content-Security-Policy', async () => {
    const page = await fetch(`${server.origin}/docs`);
    await page.arrayBuffer();
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe/);
  });

  it('renders from the same document and asks no outside validator', async () => {
    const json = await fetch(`${server.origin}/docs/json`);
    expect(await json.json()).toEqual(openApiDocument({ basePath: '/v1', version: '0.0.0-test' }));
    const init = await (await fetch(`${server.origin}/docs/static/swagger-initializer.js`)).text();
    expect(init).toContain('validatorUrl: null');
    expect(init).toContain("resolveUrl('./json')");
  });

  it('leaves the read operations behind the API key', async () => {
    const response = await fetch(`${server.baseUrl}/alerts/9f1c6d2e-4b7a-4e2d-9c3b-1a2b3c4d5e6f`);
    expect(response.status).toBe(401);
    expect((await response.json()).code).toBe('unauthorized');
  });
});
