/** The alert list over real HTTP: every filter, both sorts and orders, keyset paging, cursors, bytes, gzip and ETags. */
import { get } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Alert } from '../../src/contract/alert.js';
import { alertSummaryOf } from '../../src/contract/alert-summary.js';
import { openApiDocument } from '../../src/http/openapi/openapi-document.js';
import { processLine } from '../../src/ingest/process-line.js';
import { listedAlert, listedAlertLine, LIST_CUSTOMERS, type ListedAlert } from '../support/alert-list-records.js';
import { startTestService, type TestService } from '../support/test-service.js';

const P = 'proj-alerts';
const OTHER = 'proj-alerts-other';
const EMPTY = 'proj-alerts-empty';
const N = 90;
const alerts = Array.from({ length: N }, (_, i) => listedAlert(P, 1, i));
const others = Array.from({ length: 10 }, (_, i) => listedAlert(OTHER, 2, i));

let svc: TestService;
let key: string;
let otherKey: string;

beforeAll(async () => {
  svc = await startTestService([...alerts, ...others].map(listedAlertLine));
  key = (await svc.key(P)).key;
  otherKey = (await svc.key(OTHER)).key;
});
afterAll(async () => svc?.close());

interface Page {
  status: number;
  text: string;
  body: unknown;
  ids: string[];
  next: string | null;
  headers: Headers;
}

async function page(pathAndQuery: string, bearer = key, headers: Record<string, string> = {}): Promise<Page> {
  const res = await fetch(`${svc.url}${pathAndQuery}`, { headers: { authorization: `Bearer ${bearer}`, ...headers } });
  const text = await res.text();
  const body: unknown = text === '' ? null : JSON.parse(text);
  const link = res.headers.get('link');
  const next = link === null ? null : /^<([^>]+)>; rel="next"$/.exec(link)![1]!;
  const ids = res.status === 200 ? (body as { id: string }[]).map((a) => a.id) : [];
  return { status: res.status, text, body, ids, next, headers: res.headers };
}

const list = (query: string, bearer = key): Promise<Page> => page(`/v1/alerts${query}`, bearer);

/** Follows Link headers from a first query to the end; every id once. */
async function all(query: string, bearer = key): Promise<string[]> {
  let p = await list(query, bearer);
  expect(p.status).toBe(200);
  const ids = [...p.ids];
  for (let guard = 0; p.next !== null && guard < 1000; guard++) {
    p = await page(p.next, bearer);
    expect(p.status).toBe(200);
    ids.push(...p.ids);
  }
  return ids;
}

type Sort = 'updatedAt' | 'createdAt';
/** The expected order, computed from the model: by the instant, ties by id (lower-case, as the key). */
function ordered(items: ListedAlert[], sort: Sort = 'updatedAt', order: 'asc' | 'desc' = 'desc'): string[] {
  const at = (a: ListedAlert): number => (sort === 'updatedAt' ? a.updatedMs : a.createdMs);
  const asc = [...items].sort((a, b) => at(a) - at(b) || (a.record.id < b.record.id ? -1 : 1));
  return (order === 'asc' ? asc : asc.reverse()).map((a) => a.record.id);
}

const MAY = (minutes: number): string => new Date(Date.UTC(2024, 4, 1) + minutes * 60_000).toISOString();
const ms = (iso: string): number => Date.parse(iso);

describe('alert list', () => {
  it('answers the first page newest updatedAt first, 50 by default, with a link to the next', async () => {
    const p = await list('');
    expect(p.status).toBe(200);
    expect(p.ids).toEqual(ordered(alerts).slice(0, 50));
    expect(p.next).not.toBeNull();
    expect(p.next!.startsWith('/v1/alerts?')).toBe(true);
  });

  it.each([
    ['updatedAt', 'desc'],
    ['updatedAt', 'asc'],
    ['createdAt', 'desc'],
    ['createdAt', 'asc'],
  ] as const)('pages through every alert exactly once sorted by %s %s', async (sort, order) => {
    const ids = await all(`?sort=${sort}&order=${order}&limit=7`);
    expect(ids).toEqual(ordered(alerts, sort, order));
    expect(new Set(ids).size).toBe(N);
  });

  const cases: [string, (a: ListedAlert) => boolean][] = [
    ['status=Open', (a) => a.record.status === 'Open'],
    ['status=Closed&status=Pending', (a) => ['Closed', 'Pending'].includes(a.record.status)],
    ['severity=High', (a) => a.record.severity === 'High'],
    ['severity=Low&severity=Medium', (a) => a.record.severity !== 'High'],
    ['category=Onboarding', (a) => a.record.category === 'Onboarding'],
    ['type=Fraud&type=Duplicate', (a) => ['Fraud', 'Duplicate'].includes(a.record.type)],
    [`customerId=${LIST_CUSTOMERS[1]!.toUpperCase()}`, (a) => a.record.customerId.toLowerCase() === LIST_CUSTOMERS[1]],
    [`customerId=${LIST_CUSTOMERS[0]}`, (a) => a.record.customerId === LIST_CUSTOMERS[0]],
    ['assignedTo=analyst-a', (a) => a.record.assignedTo === 'analyst-a'],
    ['assignedTo=none', (a) => a.record.assignedTo === null],
    ['seen=true', (a) => a.record.seen],
    ['seen=false', (a) => !a.record.seen],
    [`createdFrom=${MAY(10)}`, (a) => a.createdMs >= ms(MAY(10))],
    [`createdTo=${MAY(10)}`, (a) => a.createdMs < ms(MAY(10))],
    [`updatedFrom=${MAY(30)}&updatedTo=${MAY(40)}`, (a) => a.updatedMs >= ms(MAY(30)) && a.updatedMs < ms(MAY(40))],
    [`updatedFrom=2024-05-01&updatedTo=${MAY(20)}`, (a) => a.updatedMs >= ms(MAY(0)) && a.updatedMs < ms(MAY(20))],
    ['createdTo=2024-05-01', () => false],
    ['status=Open&severity=High', (a) => a.record.status === 'Open' && a.record.severity === 'High'],
    [
      `customerId=${LIST_CUSTOMERS[2]}&seen=false&assignedTo=analyst-b`,
      (a) => a.record.customerId === LIST_CUSTOMERS[2] && !a.record.seen && a.record.assignedTo === 'analyst-b',
    ],
    [
      `category=Ongoing%20monitoring&status=Open&status=Escalated&createdFrom=${MAY(5)}&updatedTo=${MAY(60)}`,
      (a) => a.record.category === 'Ongoing monitoring' && ['Open', 'Escalated'].includes(a.record.status) && a.createdMs >= ms(MAY(5)) && a.updatedMs < ms(MAY(60)),
    ],
    [
      `severity=Medium&type=AML%20Screening&type=Fraud&type=Duplicate&type=Transaction%20Monitoring&seen=true`,
      (a) => a.record.severity === 'Medium' && ['AML Screening', 'Fraud', 'Duplicate', 'Transaction Monitoring'].includes(a.record.type) && a.record.seen,
    ],
  ];

  it.each(cases)('filters %s, in pages, in both sorts', async (query, keep) => {
    const expected = alerts.filter(keep);
    // Each filter keeps some alerts and drops others (but the one meant to keep none).
    expect(expected.length < N && (expected.length > 0 || query === 'createdTo=2024-05-01')).toBe(true);
    expect(await all(`?${query}&limit=4`)).toEqual(ordered(expected));
    expect(await all(`?${query}&sort=createdAt&order=asc&limit=5`)).toEqual(ordered(expected, 'createdAt', 'asc'));
  });

  it('answers [] with 200 and no link for a project without alerts and for a filter nothing matches', async () => {
    const emptyKey = (await svc.key(EMPTY)).key;
    for (const [query, bearer] of [['', emptyKey], ['?status=Open&severity=Low&seen=true&assignedTo=nobody', key]] as const) {
      const p = await list(query, bearer);
      expect(p.status).toBe(200);
      expect(p.text).toBe('[]');
      expect(p.next).toBeNull();
    }
  });

  it('serves each alert as its summary, byte for byte the JSON of alertSummaryOf', async () => {
    const p = await list('?limit=200');
    const byId = new Map(alerts.map((a) => [a.record.id, a]));
    const expected = `[${p.ids.map((id) => JSON.stringify(alertSummaryOf(byId.get(id)!.record as unknown as Alert))).join(',')}]`;
    expect(p.ids).toHaveLength(N);
    expect(p.text).toBe(expected);
  });

  it('answers gzip, laid out from the stored pieces, that decodes to the identity bytes', async () => {
    const identity = await list('?limit=30&status=Open&status=Closed');
    const gz = await new Promise<{ headers: Record<string, unknown>; bytes: Buffer }>((resolve, reject) => {
      get(`${svc.url}/v1/alerts?limit=30&status=Open&status=Closed`, { headers: { authorization: `Bearer ${key}`, 'accept-encoding': 'gzip' } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ headers: res.headers, bytes: Buffer.concat(chunks) }));
      }).on('error', reject);
    });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.bytes).toString('utf8')).toBe(identity.text);
    expect(gz.headers.link).toBe(identity.headers.get('link'));
  });

  it('answers 304 to If-None-Match of the page, and another ETag for another page', async () => {
    const first = await list('?limit=10');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[^"]+"$/);
    const again = await page('/v1/alerts?limit=10', key, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    const second = await page(first.next!);
    expect(second.headers.get('etag')).not.toBe(etag);
  });

  it('refuses a cursor altered, or used with other filters, another sort or order, or another project, with 400 naming cursor', async () => {
    const first = await list('?status=Open&limit=3');
    const cursor = new URL(first.next!, svc.url).searchParams.get('cursor')!;
    const tampered = `${cursor.slice(0, -2)}${cursor.endsWith('AA') ? 'BB' : 'AA'}`;
    const queries = [
      [`?status=Open&limit=3&cursor=${tampered}`, key],
      [`?status=Closed&limit=3&cursor=${cursor}`, key],
      [`?limit=3&cursor=${cursor}`, key],
      [`?status=Open&sort=createdAt&limit=3&cursor=${cursor}`, key],
      [`?status=Open&order=asc&limit=3&cursor=${cursor}`, key],
      [`?status=Open&limit=3&cursor=${cursor}`, otherKey],
    ] as const;
    for (const [query, bearer] of queries) {
      const p = await list(query, bearer);
      expect(p.status, query).toBe(400);
      expect(p.body).toMatchObject({ code: 'invalid_request', issues: [{ message: expect.stringMatching(/^cursor: /) }] });
    }
    // The same filters in another spelling (repeated, reordered) keep the cursor valid; so does another limit.
    expect((await list(`?status=Open&status=Open&limit=5&cursor=${cursor}`)).status).toBe(200);
  });

  it.each([
    ['status=open', /^status: must be one of: Open, /],
    ['severity=Critical', /^severity: must be one of: Low, Medium, High/],
    ['category=Other', /^category: must be one of: /],
    ['type=fraud', /^type: must be one of: /],
    ['customerId=', /^customerId: /],
    ['assignedTo=', /^assignedTo: /],
    ['seen=yes', /^seen: must be one of: true, false/],
    ['sort=name', /^sort: must be one of: updatedAt, createdAt/],
    ['order=up', /^order: must be one of: desc, asc/],
    ['limit=0', /^limit: must be a whole number from 1 to 200/],
    ['limit=201', /^limit: /],
    ['createdFrom=yesterday', /^createdFrom: /],
    ['createdTo=2023-02-29', /^createdTo: /],
    ['updatedFrom=2024-13-01T00:00:00Z', /^updatedFrom: /],
    ['updatedTo=2024-01-01T25:00:00Z', /^updatedTo: /],
    ['seen=true&seen=false', /^seen: given 2 times/],
    ['cursor=abc', /^cursor: /],
    ['page=2', /^page: unknown query parameter/],
  ])('rejects %s with 400 naming the parameter', async (query, message) => {
    const p = await list(`?${query}`);
    expect(p.status).toBe(400);
    expect(p.body).toMatchObject({ code: 'invalid_request', issues: [{ message: expect.stringMatching(message) }] });
  });

  it('is described in the OpenAPI document: its parameters, the Link header, and AlertSummary as a component', () => {
    const doc = openApiDocument({ basePath: '/v1', version: 'test' }) as unknown as {
      paths: Record<string, { get: { operationId: string; parameters: { name?: string }[]; responses: Record<string, { headers: object; content: Record<string, { schema: unknown }> }> } }>;
      components: { schemas: Record<string, unknown> };
    };
    const op = doc.paths['/alerts']!.get;
    expect(op.operationId).toBe('listAlerts');
    expect(op.parameters.map((p) => p.name)).toEqual(
      ['status', 'severity', 'category', 'type', 'customerId', 'assignedTo', 'seen', 'createdFrom', 'createdTo', 'updatedFrom', 'updatedTo', 'sort', 'order', 'limit', 'cursor', 'If-None-Match'],
    );
    expect(op.responses['200']!.headers).toHaveProperty('Link');
    expect(op.responses['200']!.content['application/json']!.schema).toMatchObject({ type: 'array', items: { $ref: '#/components/schemas/AlertSummary' } });
    expect(doc.components.schemas).toHaveProperty('AlertSummary');
  });

  it('needs the alerts:read scope', async () => {
    const narrow = (await svc.key(P, { scopes: ['companies:read'] })).key;
    expect((await list('', narrow)).status).toBe(403);
  });

  it('lists the new summary of an updated alert, in its new place', async () => {
    const updated = listedAlert(P, 1, 17, 1);
    const prepared = processLine(Buffer.from(listedAlertLine(updated)), 6);
    if (prepared.kind !== 'record') throw new Error('the updated alert did not validate');
    expect(await svc.store.writeBatch([prepared.upsert])).toEqual(['stored']);
    const p = await list('?limit=1');
    expect(p.ids).toEqual([updated.record.id]);
    expect(p.text).toBe(`[${JSON.stringify(alertSummaryOf(updated.record as unknown as Alert))}]`);
    expect((p.body as { name: string }[])[0]!.name).toBe('Alert 17 v1');
    const ids = await all('?limit=11');
    expect(ids.filter((id) => id === updated.record.id)).toHaveLength(1);
  });

  it('answers a repeated page with the same bytes, ETag and Link, and a fresh one once the project changed', async () => {
    const first = await list('?limit=2');
    const again = await list('?limit=2');
    expect(again.text).toBe(first.text);
    expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(again.headers.get('link')).toBe(first.headers.get('link'));
    const zipped = await page('/v1/alerts?limit=2', key, { 'accept-encoding': 'gzip' });
    expect(zipped.text).toBe(first.text);
    // Another project's key reads its own page, never this one.
    expect((await list('?limit=2', otherKey)).ids.every((id) => others.some((a) => a.record.id === id))).toBe(true);
    const newer = listedAlert(P, 1, 17, 2);
    const prepared = processLine(Buffer.from(listedAlertLine(newer)), 6);
    if (prepared.kind !== 'record') throw new Error('the updated alert did not validate');
    expect(await svc.store.writeBatch([prepared.upsert])).toEqual(['stored']);
    const fresh = await list('?limit=2');
    expect((fresh.body as { name: string }[])[0]!.name).toBe('Alert 17 v2');
    expect(fresh.headers.get('etag')).not.toBe(first.headers.get('etag'));
  });
});
