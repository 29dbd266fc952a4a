/** Company and alert answers kept as sent are served again only while the record, the key's view and the encoding are the same. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli-process.js';
import { alertLine, companyLine } from '../support/records.js';
import { clearOfSigningRollover } from '../support/signing-bucket.js';
import { startTestService, type TestService } from '../support/test-service.js';

const P = 'kept-answers';
const COMPANY = '4a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const ALERT = '5b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e';
const FILE_KEY = '6c3d4e5f-6a7b-4c8d-9e0f-1a2b3c4d5e6f';
/** Another alert of the project, changed while the first one's answer is kept. */
const OTHER_ALERT = '7d4e5f6a-7b8c-4d9e-8f0a-2b3c4d5e6f7a';

let svc: TestService;
let full: string;
let noPii: string;
let writer: string;
let eraser: string;

beforeAll(async () => {
  svc = await startTestService([companyLine(P, COMPANY, FILE_KEY), alertLine(P, ALERT, COMPANY, FILE_KEY), alertLine(P, OTHER_ALERT, COMPANY, FILE_KEY)]);
  full = (await svc.key(P)).key;
  noPii = (await svc.key(P, { scopes: ['companies:read', 'alerts:read', 'documents:read', 'screening:read'] })).key;
  writer = (await svc.key(P, { scopes: ['records:write'] })).key;
  eraser = (await svc.key(P, { scopes: ['records:erase'] })).key;
});
afterAll(async () => svc?.close());
// Every record here holds documents, so its ETag changes with the minute.
beforeEach(() => clearOfSigningRollover());

const get = (path: string, key: string, encoding = 'identity'): Promise<Response> =>
  fetch(`${svc.url}/v1${path}`, { headers: { authorization: `Bearer ${key}`, 'accept-encoding': encoding } });

/** The answer's JSON (fetch decodes gzip and br itself, and fails on a body that does not match its Content-Encoding). */
async function json(res: Response): Promise<Record<string, unknown>> {
  return (await res.json()) as Record<string, unknown>;
}

/** The alert line with a new status and updatedAt: a newer version of the record. */
function changedAlert(id: string, status: string, updatedAt: string): string {
  const changed = JSON.parse(alertLine(P, id, COMPANY, FILE_KEY)) as { record: Record<string, unknown> };
  changed.record.status = status;
  changed.record.updatedAt = updatedAt;
  return JSON.stringify(changed);
}

/** Reads until the answer is kept and found current once more (so it carries its project's change stamp). */
async function keptAndStamped(path: string, key: string): Promise<Response> {
  const first = await get(path, key);
  for (let i = 0; i < 2; i++) expect((await get(path, key)).headers.get('etag')).toBe(first.headers.get('etag'));
  return first;
}

async function push(line: string): Promise<void> {
  const res = await fetch(`${svc.url}/v1/records`, {
    method: 'POST',
    headers: { authorization: `Bearer ${writer}`, 'content-type': 'application/x-ndjson' },
    body: `${line}\n`,
  });
  expect(res.status).toBe(200);
  expect(await res.json()).toMatchObject({ rejected: 0 });
}

describe('kept record answers', () => {
  it('answers a record changed since its answer was kept with the new version and a new ETag', async () => {
    const first = await get(`/alerts/${ALERT}`, full);
    const again = await get(`/alerts/${ALERT}`, full);
    expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(await json(again)).toEqual(await json(first));
    await get(`/alerts/${ALERT}`, full);

    await push(changedAlert(ALERT, 'Closed', '2024-04-01T00:00:00Z'));
    const after = await get(`/alerts/${ALERT}`, full);
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(first.headers.get('etag'));
    expect((await json(after)).status).toBe('Closed');
  });

  it('answers a record another process changed with the new version, though no record of the project changed in this one', async () => {
    const first = await keptAndStamped(`/alerts/${ALERT}`, full);
    const file = join(svc.dir, 'changed-elsewhere.ndjson');
    writeFileSync(file, `${changedAlert(ALERT, 'Escalated', '2024-05-01T00:00:00Z')}\n`);
    runCli(['import', file, '--db', svc.dbUrl]);
    const after = await get(`/alerts/${ALERT}`, full);
    expect(after.headers.get('etag')).not.toBe(first.headers.get('etag'));
    expect((await json(after)).status).toBe('Escalated');
  });

  it('still answers a record unchanged when another record of its project changed, with its kept ETag', async () => {
    const first = await keptAndStamped(`/alerts/${ALERT}`, full);
    const body = await json(first);
    await push(changedAlert(OTHER_ALERT, 'Closed', '2024-06-01T00:00:00Z'));
    const after = await get(`/alerts/${ALERT}`, full);
    expect(after.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(await json(after)).toEqual(body);
    expect((await json(await get(`/alerts/${OTHER_ALERT}`, full))).status).toBe('Closed');
  });

  it('keeps one answer per view: a key without pii:read never gets the answer made for a key with it, nor the reverse', async () => {
    for (let round = 0; round < 3; round++) {
      const shown = (await json(await get(`/companies/${COMPANY}/details`, full))) as { beneficiaries?: { firstName?: unknown }[] };
      const withheld = (await json(await get(`/companies/${COMPANY}/details`, noPii))) as { beneficiaries?: { firstName?: unknown }[] };
      expect(JSON.stringify(shown)).not.toEqual(JSON.stringify(withheld));
      expect(JSON.stringify(withheld)).not.toContain(JSON.stringify(shown.beneficiaries?.[0]?.firstName));
    }
  });

  it('keeps one answer per encoding, each with its own ETag and the same JSON', async () => {
    const bodies: Record<string, unknown>[] = [];
    const tags = new Set<string | null>();
    for (let round = 0; round < 2; round++) {
      for (const encoding of ['identity', 'gzip', 'br']) {
        const res = await get(`/companies/${COMPANY}/details`, full, encoding);
        expect(res.status).toBe(200);
        expect(res.headers.get('content-encoding') ?? 'identity').toBe(encoding);
        tags.add(res.headers.get('etag'));
        bodies.push(await json(res));
      }
    }
    expect(tags.size).toBe(3);
    for (const body of bodies) expect(body).toEqual(bodies[0]);
  });

  it('revalidates a kept answer with 304', async () => {
    const res = await get(`/companies/${COMPANY}/details`, full);
    const etag = res.headers.get('etag')!;
    const revalidated = await fetch(`${svc.url}/v1/companies/${COMPANY}/details`, { headers: { authorization: `Bearer ${full}`, 'accept-encoding': 'identity', 'if-none-match': etag } });
    expect(revalidated.status).toBe(304);
  });

  it('answers 404 for a record erased after its answer was kept', async () => {
    expect((await keptAndStamped(`/companies/${COMPANY}/details`, full)).status).toBe(200);
    expect((await keptAndStamped(`/alerts/${ALERT}`, full)).status).toBe(200);
    const erased = await fetch(`${svc.url}/v1/customers/${COMPANY}/erase`, { method: 'POST', headers: { authorization: `Bearer ${eraser}` } });
    expect(erased.status).toBe(200);
    const company = await get(`/companies/${COMPANY}/details`, full);
    expect(company.status).toBe(404);
    expect(await company.json()).toEqual({ code: 'not_found', message: 'no company with this id', issues: [] });
  });
});
