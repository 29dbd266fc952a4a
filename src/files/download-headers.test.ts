import { describe, expect, it } from 'vitest';
import { contentDisposition, downloadHeaders, safeContentType } from './download-headers.js';

describe('safeContentType', () => {
  it('keeps well-formed media types, parameters included', () => {
    expect(safeContentType('application/pdf')).toBe('application/pdf');
    expect(safeContentType('text/plain; charset=utf-8')).toBe('text/plain; charset=utf-8');
    expect(safeContentType('image/svg+xml')).toBe('image/svg+xml');
  });

  it('falls back to application/octet-stream for anything malformed or absent', () => {
    for (const bad of [undefined, '', 'pdf', 'text/html\r\nSet-Cookie: a=b', 'a/b; c', '/x', `a/${'b'.repeat(300)}`]) {
      expect(safeContentType(bad)).toBe('application/octet-stream');
    }
  });
});

describe('contentDisposition', () => {
  it('always says attachment, with an ASCII fallback and the exact UTF-8 name', () => {
    expect(contentDisposition(undefined)).toBe('attachment');
    expect(contentDisposition('a "b"\\c/d é(1)*.pdf')).toBe(
      `attachment; filename="a _b__c_d _(1)*.pdf"; filename*=UTF-8''a%20%22b%22%5Cc%2Fd%20%C3%A9%281%29%2A.pdf`,
    );
  });

  it('cannot be broken out of by control characters or lone surrogates', () => {
    const v = contentDisposition('x\r\ny\ud800');
    expect(v).not.toMatch(/[\r\n]/);
    expect(v).toContain("filename*=UTF-8''x%0D%0Ay%EF%BF%BD");
  });
});

describe('downloadHeaders', () => {
  it('serves as a sandboxed, unsniffed attachment cached no longer than the URL lives', () => {
    const h = downloadHeaders({ filename: 'a.pdf', mimetype: 'application/pdf', size: 12, expires: 1000 }, 940_500);
    expect(h).toMatchObject({
      'content-type': 'application/pdf',
      'content-length': '12',
      'x-content-type-options': 'nosniff',
      'cache-control': 'private, max-age=59',
    });
    expect(h['content-disposition']).toMatch(/^attachment;/);
    expect(h['content-security-policy']).toContain('sandbox');
    expect(downloadHeaders({ size: 0, expires: 1 }, 5000)['cache-control']).toBe('private, max-age=0');
  });
});
