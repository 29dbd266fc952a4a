import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHmac, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { defaultFilesDir, isSafeObjectKey, LocalFileStore, type SignedFileRequest } from './local-file-store.js';

const KEY = '0b7e2a4c-1d3f-4e5a-9b6c-7d8e9f0a1b2c';
const P = 'proj-a';
const NOW = 1_700_000_000_000;
const TTL = 900;
let root: string;
let dir: string;
let outsideFile: string;
const secret = randomBytes(32);

/** What a router hands over: the decoded last two path segments and the decoded query values. */
function requestOf(url: string): SignedFileRequest & Record<string, unknown> {
  const u = new URL(url);
  const [project = '', objectKey = ''] = u.pathname.split('/').slice(-2);
  return { project: decodeURIComponent(project), objectKey: decodeURIComponent(objectKey), ...Object.fromEntries(u.searchParams) };
}

function store(opts: Partial<ConstructorParameters<typeof LocalFileStore>[0]> = {}): LocalFileStore {
  return new LocalFileStore({ dir, secret, publicBaseUrl: 'https://api.example/', basePath: '/v1', ...opts });
}

/** A signature made with the real secret, as if an attacker had one for an arbitrary key. */
function forgedSig(objectKey: string, expires: string, project = P): string {
  const message = JSON.stringify(['compliance-read/local-file/v2', project, objectKey, expires, null, null]);
  return createHmac('sha256', secret).update(message).digest('base64url');
}

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'local-file-store-'));
  dir = defaultFilesDir(path.join(root, 'data'));
  outsideFile = path.join(root, 'data', 'secret.txt');
  await mkdir(dir, { recursive: true });
  await writeFile(outsideFile, 'do not serve');
  const source = path.join(root, 'upload.pdf');
  await writeFile(source, '%PDF-1.7 test');
  await store().put(P, KEY, source);
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('LocalFileStore signing and verification', () => {
  it('signs a URL under the public base and base path that verifies to the stored file', async () => {
    const s = store();
    const url = s.signUrl({ project: P, objectKey: KEY, filename: 'Pass port é.pdf', mimetype: 'application/pdf' }, NOW);
    expect(url).toMatch(new RegExp(`^https://api\\.example/v1/files/${P}/${KEY}\\?expires=\\d+&filename=Pass%20port%20%C3%A9\\.pdf&mimetype=application%2Fpdf&sig=[\\w-]{43}$`));
    const res = await s.verify(requestOf(url), NOW);
    expect(res).toMatchObject({ ok: true, filename: 'Pass port é.pdf', mimetype: 'application/pdf', size: 13 });
    if (!res.ok) throw new Error('unreachable');
    expect(await readFile(res.path, 'utf8')).toBe('%PDF-1.7 test');
  });

  it('omits filename and mimetype when the document has none, and still verifies', async () => {
    const url = store().signUrl({ project: P, objectKey: KEY }, NOW);
    expect(url).not.toMatch(/filename|mimetype/);
    expect(await store().verify(requestOf(url), NOW)).toMatchObject({ ok: true, filename: undefined, mimetype: undefined });
  });

  it('refuses a signature with any single character changed', async () => {
    const s = store();
    const req = requestOf(s.signUrl({ project: P, objectKey: KEY, filename: 'a.pdf' }, NOW));
    const sig = req.sig as string;
    for (let i = 0; i < sig.length; i++) {
      for (const c of ['A', 'B', '-', '_']) {
        if (sig[i] === c) continue;
        const bad = sig.slice(0, i) + c + sig.slice(i + 1);
        expect(await s.verify({ ...req, sig: bad }, NOW)).toEqual({ ok: false, reason: 'forbidden' });
      }
    }
  });

  it('refuses a missing or malformed signature', async () => {
    const s = store();
    const req = requestOf(s.signUrl({ project: P, objectKey: KEY }, NOW));
    for (const sig of [undefined, '', 'x', `${req.sig as string}A`, ['a', 'b'], (req.sig as string).replace(/.$/, '=')]) {
      expect(await s.verify({ ...req, sig }, NOW)).toEqual({ ok: false, reason: 'forbidden' });
    }
  });

  it('refuses a tampered expiry, filename or mimetype, added or removed ones included', async () => {
    const s = store();
    const req = requestOf(s.signUrl({ project: P, objectKey: KEY, filename: 'a.pdf', mimetype: 'application/pdf' }, NOW));
    const later = String(Number(req.expires) + 3600);
    const variants: Record<string, unknown>[] = [
      { expires: later }, { expires: `0${req.expires as string}` }, { expires: `${req.expires as string}.0` },
      { filename: 'b.pdf' }, { filename: undefined }, { filename: '' }, { mimetype: 'text/html' },
      { mimetype: undefined }, { mimetype: ['application/pdf', 'text/html'] }, { objectKey: 'other-key' },
    ];
    for (const v of variants) {
      expect(await s.verify({ ...req, ...v }, NOW)).toEqual({ ok: false, reason: 'forbidden' });
    }
    const bare = requestOf(s.signUrl({ project: P, objectKey: KEY }, NOW));
    expect(await s.verify({ ...bare, filename: 'x.exe' }, NOW)).toEqual({ ok: false, reason: 'forbidden' });
  });

  it('refuses a URL signed with another secret', async () => {
    const url = store({ secret: randomBytes(32) }).signUrl({ project: P, objectKey: KEY }, NOW);
    expect(await store().verify(requestOf(url), NOW)).toEqual({ ok: false, reason: 'forbidden' });
  });

  it('is valid for at least the ttl and refused from its expiry on', async () => {
    const s = store({ ttlSeconds: TTL });
    const req = requestOf(s.signUrl({ project: P, objectKey: KEY }, NOW));
    const expires = Number(req.expires);
    expect((await s.verify(req, NOW + TTL * 1000 - 1)).ok).toBe(true);
    expect((await s.verify(req, expires * 1000 - 1)).ok).toBe(true);
    expect(await s.verify(req, expires * 1000)).toEqual({ ok: false, reason: 'forbidden' });
  });

  it('reports a validly signed URL for a file that is not there as not_found', async () => {
    const s = store();
    const url = s.signUrl({ project: P, objectKey: 'never-stored' }, NOW);
    expect(await s.verify(requestOf(url), NOW)).toEqual({ ok: false, reason: 'not_found' });
    await mkdir(path.join(dir, P, 'a-directory'), { recursive: true });
    expect(await s.verify(requestOf(s.signUrl({ project: P, objectKey: 'a-directory' }, NOW)), NOW)).toEqual({ ok: false, reason: 'not_found' });
  });

  it('gives identical URLs within an expiry bucket and a new one in the next', () => {
    const s = store({ ttlSeconds: TTL, bucketSeconds: 60 });
    const doc = { project: P, objectKey: KEY, filename: 'a.pdf', mimetype: 'application/pdf' };
    const start = Math.ceil(NOW / 60_000) * 60_000; // a bucket boundary (the ttl is whole minutes)
    const first = s.signUrl(doc, start + 1);
    expect(s.signUrl(doc, start + 30_000)).toBe(first);
    expect(s.signUrl(doc, start + 60_000)).toBe(first);
    expect(s.signUrl(doc, start + 60_001)).not.toBe(first);
    expect(s.expiresAt(start + 1)).toBe(Number(requestOf(first).expires));
  });
});

describe('LocalFileStore containment', () => {
  const hostile = ['../x', '..%2Fx', '..\\x', 'a/b', '%00', 'a\0b', '\0', '/etc/passwd', '.', '..', '', 'a b', 'ü', 'x'.repeat(201)];

  it('accepts uuids and plain tokens as object keys and nothing else', () => {
    expect(isSafeObjectKey(KEY)).toBe(true);
    expect(isSafeObjectKey('scan_1.v2-final')).toBe(true);
    expect(isSafeObjectKey('..hidden')).toBe(true);
    for (const key of hostile) expect(isSafeObjectKey(key)).toBe(false);
    expect(isSafeObjectKey(['a'])).toBe(false);
  });

  it('refuses to store or sign under a hostile key', async () => {
    const s = store();
    for (const key of hostile) {
      await expect(s.putBytes(P, key, 'x')).rejects.toThrow(/objectKey/);
      expect(() => s.signUrl({ project: P, objectKey: key }, NOW)).toThrow(/objectKey/);
    }
    expect((await readdir(path.dirname(dir))).sort()).toEqual(['files', 'secret.txt']);
  });

  it('refuses hostile keys even with a correctly computed signature', async () => {
    const s = store();
    const expires = String(s.expiresAt(NOW));
    for (const objectKey of [...hostile, '../secret.txt', '..%2Fsecret.txt', outsideFile, `files/../secret.txt`]) {
      const res = await s.verify({ project: P, objectKey, expires, sig: forgedSig(objectKey, expires) }, NOW);
      expect(res).toEqual({ ok: false, reason: 'forbidden' });
    }
  });

  it('does not follow a symlink planted in the directory to a file outside it', async () => {
    await symlink(outsideFile, path.join(dir, P, 'planted-link'));
    const s = store();
    const url = s.signUrl({ project: P, objectKey: 'planted-link' }, NOW);
    expect(await s.verify(requestOf(url), NOW)).toEqual({ ok: false, reason: 'forbidden' });
  });

  it('replaces a stored file whole and leaves no temporary files behind', async () => {
    const s = store();
    await s.putBytes(P, 'replaced', 'first');
    await s.putBytes(P, 'replaced', 'second version');
    const res = await s.verify(requestOf(s.signUrl({ project: P, objectKey: 'replaced' }, NOW)), NOW);
    expect(res).toMatchObject({ ok: true, size: 14 });
    expect((await readdir(path.join(dir, P))).filter((f) => f.startsWith('.tmp-'))).toEqual([]);
    await expect(s.put(P, 'from-nowhere', path.join(root, 'missing.pdf'))).rejects.toThrow(/ENOENT/);
    expect((await readdir(path.join(dir, P))).filter((f) => f.startsWith('.tmp-'))).toEqual([]);
  });

  it('creates the directory on first put and answers not_found before that', async () => {
    const fresh = path.join(root, 'fresh', 'files');
    const s = store({ dir: fresh });
    const url = s.signUrl({ project: P, objectKey: KEY }, NOW);
    expect(await s.verify(requestOf(url), NOW)).toEqual({ ok: false, reason: 'not_found' });
    await s.putBytes(P, KEY, 'now here');
    expect((await s.verify(requestOf(url), NOW)).ok).toBe(true);
  });
});

describe('LocalFileStore projects', () => {
  const OTHER = 'proj-b';

  it('keeps each project\'s files in a directory of its own, signing the project with the key', async () => {
    const s = store();
    await s.putBytes(OTHER, KEY, 'B only');
    expect(await readFile(path.join(dir, OTHER, KEY), 'utf8')).toBe('B only');
    const a = await s.verify(requestOf(s.signUrl({ project: P, objectKey: KEY }, NOW)), NOW);
    const b = await s.verify(requestOf(s.signUrl({ project: OTHER, objectKey: KEY }, NOW)), NOW);
    if (!a.ok || !b.ok) throw new Error('both should verify');
    expect(await readFile(a.path, 'utf8')).toBe('%PDF-1.7 test');
    expect(await readFile(b.path, 'utf8')).toBe('B only');
  });

  it('refuses a URL whose project is changed, even to one that has the same objectKey', async () => {
    const s = store();
    const req = requestOf(s.signUrl({ project: P, objectKey: KEY }, NOW));
    for (const project of [OTHER, '', `${P} `, P.toUpperCase(), undefined, [P]]) {
      expect(await s.verify({ ...req, project }, NOW)).toEqual({ ok: false, reason: 'forbidden' });
    }
  });

  it('encodes a project into one safe path segment that decodes back to it', async () => {
    const s = store();
    const odd = 'Acme Ltd/ä.%2F';
    await s.putBytes(odd, KEY, 'odd');
    const url = s.signUrl({ project: odd, objectKey: KEY }, NOW);
    expect(url).toContain(`/files/Acme%20Ltd%2F%C3%A4.%252F/${KEY}?`);
    expect(await readdir(dir)).toContain('Acme%20Ltd%2F%C3%A4.%252F');
    expect(await s.verify(requestOf(url), NOW)).toMatchObject({ ok: true, size: 3 });
    for (const bad of ['', '.', '..', 'a\ud800', 'x'.repeat(201)]) {
      expect(() => s.signUrl({ project: bad, objectKey: KEY }, NOW)).toThrow(/project/);
      await expect(s.putBytes(bad, KEY, 'x')).rejects.toThrow(/project/);
    }
  });

  it('never serves a file stored flat by an older version, and adopt moves it under its project', async () => {
    const s = store({ dir: path.join(root, 'legacy') });
    await mkdir(s.dir, { recursive: true });
    await writeFile(path.join(s.dir, 'flat-1'), 'one');
    await writeFile(path.join(s.dir, 'flat-2'), 'two');
    const url = s.signUrl({ project: P, objectKey: 'flat-1' }, NOW);
    expect(await s.verify(requestOf(url), NOW)).toEqual({ ok: false, reason: 'not_found' });
    expect(await s.adopt(P, ['flat-1', 'missing'])).toEqual({ moved: ['flat-1'], skipped: ['missing'] });
    expect(await s.verify(requestOf(url), NOW)).toMatchObject({ ok: true, size: 3 });
    // Already adopted keys are never overwritten; --all takes every remaining flat file.
    await writeFile(path.join(s.dir, 'flat-1'), 'newer');
    expect(await s.adopt(P)).toEqual({ moved: ['flat-2'], skipped: ['flat-1'] });
    expect(await readFile(path.join(s.dir, P, 'flat-1'), 'utf8')).toBe('one');
    await expect(s.adopt(P, ['../x'])).rejects.toThrow(/objectKey/);
  });

  it("does not follow a link in one project's directory to another project's file", async () => {
    const s = store();
    await s.putBytes(OTHER, 'linked-target', 'B secret');
    await symlink(path.join(dir, OTHER, 'linked-target'), path.join(dir, P, 'linked'));
    expect(await s.verify(requestOf(s.signUrl({ project: P, objectKey: 'linked' }, NOW)), NOW)).toEqual({ ok: false, reason: 'forbidden' });
  });
});

describe('LocalFileStore configuration', () => {
  it('refuses a short secret, a relative base path and a bad ttl', () => {
    expect(() => store({ secret: randomBytes(16) })).toThrow(/secret/);
    expect(() => store({ basePath: 'v1' })).toThrow(/basePath/);
    expect(() => store({ ttlSeconds: -1 })).toThrow(/ttlSeconds/);
  });

  it('keeps its own copy of the secret', async () => {
    const mine = randomBytes(32);
    const s = store({ secret: mine });
    const url = s.signUrl({ project: P, objectKey: KEY }, NOW);
    mine.fill(0);
    expect((await s.verify(requestOf(url), NOW)).ok).toBe(true);
  });

  it('signs lone surrogates in a filename as U+FFFD instead of throwing', async () => {
    const s = store();
    const res = await s.verify(requestOf(s.signUrl({ project: P, objectKey: KEY, filename: 'a\ud800.pdf' }, NOW)), NOW);
    expect(res).toMatchObject({ ok: true, filename: 'a\ufffd.pdf' });
  });
});

describe('LocalFileStore removal', () => {
  it('deletes a project file, takes a missing one as deleted, and removes a planted link without touching its target', async () => {
    const key = '1b7e2a4c-1d3f-4e5a-9b6c-7d8e9f0a1b2c';
    await store().putBytes(P, key, 'erase me');
    await store().remove(P, key);
    expect(await readdir(path.join(dir, P))).not.toContain(key);
    await expect(store().remove(P, key)).resolves.toBeUndefined();
    const link = '2b7e2a4c-1d3f-4e5a-9b6c-7d8e9f0a1b2c';
    await symlink(outsideFile, path.join(dir, P, link));
    await store().remove(P, link);
    expect(await readFile(outsideFile, 'utf8')).toBe('do not serve');
    expect(await readdir(path.join(dir, P))).not.toContain(link);
    await expect(store().remove(P, '../secret.txt')).rejects.toThrow(RangeError);
  });
});
