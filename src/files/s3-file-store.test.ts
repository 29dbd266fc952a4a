import { describe, expect, it } from 'vitest';
import { S3FileStore, s3ObjectKey, type S3FileStoreOptions } from './s3-file-store.js';

const NOW = 1_700_000_000_000;
const KEY = '0b7e2a4c-1d3f-4e5a-9b6c-7d8e9f0a1b2c';
const DOC = { project: 'proj-a', objectKey: KEY, filename: 'Pass port é.pdf', mimetype: 'application/pdf' };
const CREDENTIALS = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' };

// Port 9 (discard) on loopback: nothing would answer, so any network use would fail the test.
function store(opts: Partial<S3FileStoreOptions> = {}): S3FileStore {
  return new S3FileStore({
    bucket: 'compliance-docs', endpoint: 'http://127.0.0.1:9', forcePathStyle: true, region: 'eu-west-1',
    credentials: CREDENTIALS, ...opts,
  });
}

/** X-Amz-Date (yyyymmddThhmmssZ) as unix seconds. */
function amzDateSeconds(v: string): number {
  const iso = `${v.slice(0, 4)}-${v.slice(4, 6)}-${v.slice(6, 8)}T${v.slice(9, 11)}:${v.slice(11, 13)}:${v.slice(13, 15)}Z`;
  return Date.parse(iso) / 1000;
}

describe('S3FileStore', () => {
  it('presigns a GET for the bucket and the project-prefixed key offline, with the document name and type', async () => {
    const url = new URL(await store().signUrl(DOC, NOW));
    expect(url.origin).toBe('http://127.0.0.1:9');
    expect(url.pathname).toBe(`/compliance-docs/proj-a/${KEY}`);
    const q = url.searchParams;
    expect(q.get('X-Amz-Algorithm')).toBe('AWS4-HMAC-SHA256');
    expect(q.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
    expect(q.get('X-Amz-Credential')).toMatch(/^AKIDEXAMPLE\/\d{8}\/eu-west-1\/s3\/aws4_request$/);
    expect(q.get('response-content-type')).toBe('application/pdf');
    expect(q.get('response-content-disposition')).toBe(
      `attachment; filename="Pass port _.pdf"; filename*=UTF-8''Pass%20port%20%C3%A9.pdf`,
    );
    expect(q.has('x-amz-checksum-mode')).toBe(false);
  });

  it('expires exactly at the rounded expiry, at least ttl from now, signed in the past', async () => {
    const s = store({ ttlSeconds: 600, bucketSeconds: 60 });
    const q = new URL(await s.signUrl(DOC, NOW)).searchParams;
    const signedAt = amzDateSeconds(q.get('X-Amz-Date')!);
    const expiresIn = Number(q.get('X-Amz-Expires'));
    expect(expiresIn).toBe(600 + 60);
    expect(signedAt + expiresIn).toBe(s.expiresAt(NOW));
    expect(signedAt + expiresIn).toBeGreaterThanOrEqual(NOW / 1000 + 600);
    expect(signedAt).toBeLessThanOrEqual(NOW / 1000);
  });

  it('puts the bucket in the host name unless path style is forced', async () => {
    const url = new URL(await store({ endpoint: undefined, forcePathStyle: false }).signUrl(DOC, NOW));
    expect(url.host).toBe('compliance-docs.s3.eu-west-1.amazonaws.com');
    expect(url.pathname).toBe(`/proj-a/${KEY}`);
  });

  it('changes the signature when the credentials change', async () => {
    const sig = async (o: Partial<S3FileStoreOptions>): Promise<string | null> =>
      new URL(await store(o).signUrl(DOC, NOW)).searchParams.get('X-Amz-Signature');
    const base = await sig({});
    expect(await sig({})).toBe(base);
    expect(await sig({ credentials: { ...CREDENTIALS, secretAccessKey: `${CREDENTIALS.secretAccessKey}x` } })).not.toBe(base);
    expect(await sig({ credentials: { ...CREDENTIALS, accessKeyId: 'AKIDOTHER' } })).not.toBe(base);
  });

  it('returns the same URL within a bucket, synchronously once signed, and a new one after', async () => {
    const s = store({ ttlSeconds: 900, bucketSeconds: 60 });
    const start = Math.ceil(NOW / 60_000) * 60_000;
    const first = await s.signUrl(DOC, start + 1);
    const again = s.signUrl(DOC, start + 45_000);
    expect(typeof again).toBe('string');
    expect(again).toBe(first);
    const next = await s.signUrl(DOC, start + 60_001);
    expect(next).not.toBe(first);
    // A fresh store signs the same bytes: URLs depend on the bucket only, not on the instant.
    expect(await store({ ttlSeconds: 900, bucketSeconds: 60 }).signUrl(DOC, start + 59_000)).toBe(first);
  });

  it('signs once for concurrent first reads of the same document', () => {
    const s = store();
    const a = s.signUrl(DOC, NOW);
    const b = s.signUrl(DOC, NOW);
    expect(a).toBeInstanceOf(Promise);
    expect(b).toBe(a);
    expect(s.signUrl({ ...DOC, filename: 'other.pdf' }, NOW)).not.toBe(a);
    return a;
  });

  it('keys objects by project: another project, or an encoded one, is another object and another signature', async () => {
    const s = store();
    const a = new URL(await s.signUrl(DOC, NOW));
    const b = new URL(await s.signUrl({ ...DOC, project: 'proj-b' }, NOW));
    expect(b.pathname).toBe(`/compliance-docs/proj-b/${KEY}`);
    expect(b.searchParams.get('X-Amz-Signature')).not.toBe(a.searchParams.get('X-Amz-Signature'));
    expect(s3ObjectKey('Acme Ltd/ä', KEY)).toBe(`Acme%20Ltd%2F%C3%A4/${KEY}`);
  });

  it('refuses an unsafe objectKey or a project that cannot hold files instead of signing a key outside the prefix', () => {
    const s = store();
    for (const objectKey of ['../proj-b/x', 'a/b', '', '..']) expect(() => s.signUrl({ ...DOC, objectKey }, NOW)).toThrow(/objectKey/);
    for (const project of ['', '..']) expect(() => s.signUrl({ ...DOC, project }, NOW)).toThrow(/project/);
  });

  it('refuses an empty bucket and a lifetime beyond the seven days SigV4 allows', () => {
    expect(() => store({ bucket: '' })).toThrow(/bucket/);
    expect(() => store({ ttlSeconds: 7 * 24 * 3600 })).toThrow(/7|604800/);
  });
});
