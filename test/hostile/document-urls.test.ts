/**
 * Document URLs are bound to the project of the record that was read: a record cannot obtain a
 * working URL for another project's file, a URL cannot be re-pointed at another project, only
 * the contract's document places are signed, and no objectKey, imported or stored, can make a
 * record unreadable. Run with the local file store and with the S3 presigner.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordKey } from '../../src/contract/record-key.js';
import { alertLine, companyLine } from '../support/records.js';
import { startTestService, testS3FileStore, type TestService } from '../support/test-service.js';

const A = 'proj-a';
const B = 'proj-b';
// A project id that needs encoding in a path: its own files must still download.
const ODD = 'Acme Ltd/ä.';
const KEY_B = 'b0000000-0000-4000-8000-00000000000b'; // a file only B has
const KEY_SHARED = '5a000000-0000-4000-8000-000000000005'; // both projects have a file by this key
const KEY_ODD = '0dd00000-0000-4000-8000-000000000000';
const id = (n: number): string => `${String(n).padStart(8, '0')}-1111-4000-8000-000000000000`;
const NAMES_B = id(1); // A's company naming B's file
const NAMES_B_ALERT = id(2); // A's alert naming B's file
const OWN_SHARED = id(3); // A's company naming the shared key
const EXTRAS = id(4); // A's company with presignedUrl in extra members
const EXTRA_UNSAFE = id(5); // A's company with an unsafe objectKey in an extra member
const UNSAFE_IMPORT = id(6); // a line with an unsafe objectKey where the contract puts documents
const STORED_UNSAFE = id(7); // written to the store directly, as an older version could have
const ODD_COMPANY = id(8);

/** The parts of a company record the edits below touch. */
interface Editable extends Record<string, unknown> {
  documents: (Record<string, unknown> & { document: Record<string, unknown> })[];
}

/** A company line with `edit` applied to its record. */
function company(project: string, cid: string, objectKey: string, edit: (r: Editable) => void = () => undefined): string {
  const env = JSON.parse(companyLine(project, cid, objectKey)) as { record: Editable };
  edit(env.record);
  return JSON.stringify(env);
}

const EXTRA_URL = 'https://stored.example/extra-member';
const lines = [
  company(B, id(100), KEY_B),
  company(A, NAMES_B, KEY_B),
  alertLine(A, NAMES_B_ALERT, NAMES_B, KEY_B),
  company(A, OWN_SHARED, KEY_SHARED),
  company(A, EXTRAS, KEY_SHARED, (r) => {
    r.attachment = { objectKey: KEY_B, filename: 'b.pdf', presignedUrl: EXTRA_URL };
    r.documents[0]!.scan = { objectKey: KEY_B, presignedUrl: EXTRA_URL };
    r.documents[0]!.document.thumbnail = { objectKey: KEY_B, presignedUrl: EXTRA_URL };
    r.documents.push({ metadata: {}, document: { objectKey: null, presignedUrl: 'stale' }, extra: [{ objectKey: KEY_B, presignedUrl: EXTRA_URL }] });
  }),
  company(A, EXTRA_UNSAFE, KEY_SHARED, (r) => {
    r.attachment = { objectKey: '../../../etc/passwd', presignedUrl: EXTRA_URL };
  }),
  company(A, UNSAFE_IMPORT, '../../../etc/passwd'),
  company(ODD, ODD_COMPANY, KEY_ODD),
];

interface Company {
  documents: { document: { presignedUrl: string; thumbnail?: { presignedUrl: string } }; scan?: { presignedUrl: string }; extra?: { presignedUrl: string }[] }[];
  attachment?: { presignedUrl: string };
}

describe.each(['local', 's3'] as const)('document URLs with the %s file store', (kind) => {
  let svc: TestService;
  const keys = new Map<string, string>();
  beforeAll(async () => {
    svc = await startTestService(lines, { fileStore: kind });
    for (const p of [A, B, ODD]) keys.set(p, (await svc.key(p)).key);
    await svc.files.putBytes(B, KEY_B, 'B-SECRET');
    await svc.files.putBytes(B, KEY_SHARED, 'B-OWN');
    await svc.files.putBytes(A, KEY_SHARED, 'A-OWN');
    await svc.files.putBytes(ODD, KEY_ODD, 'ODD-OWN');
    // The same record as an older version could have stored it: a splice whose objectKey is unsafe.
    const body = Buffer.from(JSON.stringify((JSON.parse(company(A, STORED_UNSAFE, KEY_SHARED)) as { record: unknown }).record));
    const value = Buffer.from('"https://stored.example/never-served"');
    const start = body.indexOf(value);
    await svc.store.writeBatch([{
      kind: 'customer', project: A, key: recordKey(STORED_UNSAFE), versionKey: null, isCompany: true, body, etag: 'stored-unsafe',
      layout: JSON.stringify({ s: [[start, start + value.length, '../../../etc/passwd', null, null]] }), deflated: null,
    }]);
  });
  afterAll(async () => svc?.close());

  const read = async <T>(project: string, path: string, encoding = 'identity'): Promise<{ status: number; body: T }> => {
    const res = await fetch(`${svc.url}${path}`, { headers: { authorization: `Bearer ${keys.get(project)!}`, 'accept-encoding': encoding } });
    return { status: res.status, body: (await res.json()) as T };
  };
  const companyOf = async (project: string, cid: string): Promise<Company> => {
    const res = await read<Company>(project, `/v1/companies/${cid}/details`);
    expect(res.status).toBe(200);
    return res.body;
  };
  /** What a URL answers: the local route is fetched; an S3 URL is inspected (nothing serves it here). */
  const download = async (url: string): Promise<{ status: number; text: string }> => {
    const res = await fetch(url);
    return { status: res.status, text: await res.text() };
  };

  it("gives a record naming another project's objectKey no working URL for that project's file", async () => {
    const urls = [
      (await companyOf(A, NAMES_B)).documents[0]!.document.presignedUrl,
      (await read<{ notes: { documents: { presignedUrl: string }[] }[] }>(A, `/v1/alerts/${NAMES_B_ALERT}`)).body.notes[0]!.documents[0]!.presignedUrl,
    ];
    for (const url of urls) {
      expect(url).not.toBe('');
      if (kind === 'local') {
        const got = await download(url);
        expect(got.text).not.toContain('B-SECRET');
        expect(got.status).toBe(404);
      } else {
        // The object key is under A's prefix: B's object is not what the URL names.
        expect(new URL(url).pathname).toBe(`/test-docs/${A}/${KEY_B}`);
      }
    }
  });

  it("serves a project its own file under a key another project also uses, and a project id that needs encoding", async () => {
    const url = (await companyOf(A, OWN_SHARED)).documents[0]!.document.presignedUrl;
    const odd = (await companyOf(ODD, ODD_COMPANY)).documents[0]!.document.presignedUrl;
    if (kind === 'local') {
      expect(await download(url)).toEqual({ status: 200, text: 'A-OWN' });
      expect(await download(odd)).toEqual({ status: 200, text: 'ODD-OWN' });
    } else {
      expect(new URL(url).pathname).toBe(`/test-docs/${A}/${KEY_SHARED}`);
      expect(new URL(odd).pathname).toBe(`/test-docs/Acme%2520Ltd%252F%25C3%25A4./${KEY_ODD}`);
    }
  });

  it('refuses a URL signed for one project once it is altered to name another', async () => {
    const url = new URL((await companyOf(A, OWN_SHARED)).documents[0]!.document.presignedUrl);
    const altered = new URL(url);
    altered.pathname = url.pathname.replace(`/${A}/`, `/${B}/`);
    expect(altered.pathname).not.toBe(url.pathname);
    if (kind === 'local') {
      const got = await download(altered.href);
      expect(got.text).not.toContain('B-OWN');
      expect(got.status).toBe(403);
    } else {
      // SigV4 signs the path: the signature of B's object at the same instant is another one.
      const forB = new URL(await testS3FileStore().signUrl({ project: B, objectKey: KEY_SHARED, filename: 'certificate of incorporation.pdf', mimetype: 'application/pdf' }, Date.now()));
      expect(forB.pathname).toBe(altered.pathname);
      expect(forB.searchParams.get('X-Amz-Signature')).not.toBe(url.searchParams.get('X-Amz-Signature'));
    }
  });

  it('leaves presignedUrl in members outside the contract’s document places as stored, never signed', async () => {
    for (const encoding of ['identity', 'gzip']) {
      const c = (await read<Company>(A, `/v1/companies/${EXTRAS}/details`, encoding)).body;
      expect(c.attachment!.presignedUrl).toBe(EXTRA_URL);
      expect(c.documents[0]!.scan!.presignedUrl).toBe(EXTRA_URL);
      expect(c.documents[0]!.document.thumbnail!.presignedUrl).toBe(EXTRA_URL);
      expect(c.documents[1]!.extra![0]!.presignedUrl).toBe(EXTRA_URL);
      // The contract's places still are: a real document signed, one without objectKey emptied.
      expect(c.documents[0]!.document.presignedUrl).toMatch(/^http:\/\/127\.0\.0\.1/);
      expect(c.documents[1]!.document.presignedUrl).toBe('');
    }
  });

  it('keeps a record with an unsafe objectKey in an extra member readable, the member as stored', async () => {
    const c = await companyOf(A, EXTRA_UNSAFE);
    expect(c.attachment!.presignedUrl).toBe(EXTRA_URL);
  });

  it('rejects a line with an unsafe objectKey where the contract puts a document, with the reject format', async () => {
    expect((await read(A, `/v1/companies/${UNSAFE_IMPORT}/details`)).status).toBe(404);
    const rejects = readFileSync(join(svc.dir, 'input.ndjson.rejects.ndjson'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { line: number; issues: { path: string }[] });
    expect(rejects).toEqual([expect.objectContaining({ line: lines.indexOf(company(A, UNSAFE_IMPORT, '../../../etc/passwd')) + 1, issues: [expect.objectContaining({ path: '/record/documents/0/document/objectKey' })] })]);
  });

  it('answers 200 with an empty URL for a stored record whose objectKey is unsafe', async () => {
    for (const encoding of ['identity', 'gzip', 'br']) {
      const res = await read<Company>(A, `/v1/companies/${STORED_UNSAFE}/details`, encoding);
      expect(res.status).toBe(200);
      expect(res.body.documents[0]!.document.presignedUrl).toBe('');
    }
  });

  it.runIf(kind === 'local')("logs a download under the file's project with its objectKey as the record", async () => {
    const url = (await companyOf(A, OWN_SHARED)).documents[0]!.document.presignedUrl;
    const res = await fetch(url, { headers: { 'x-request-id': 'download-1' } });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    let got: { requestId: string; project: string; recordId: string | null }[] = [];
    for (let i = 0; i < 100 && got.length === 0; i++) {
      got = (await svc.store.queryAccessLog({ project: A, recordId: KEY_SHARED, limit: 100 })).filter((e) => e.requestId === 'download-1');
      if (got.length === 0) await new Promise((r) => setTimeout(r, 50));
    }
    expect(got).toEqual([expect.objectContaining({ project: A, recordId: KEY_SHARED, keyId: null, status: 200, route: '/v1/files/:project/:objectKey' })]);
  });
});
