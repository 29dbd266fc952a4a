/** Filters, ordering and keyset paging of a customer's executions over real HTTP. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executionLine, individualLine } from '../support/records.js';
import { startTestService, type TestService } from '../support/test-service.js';

const P = 'proj-a';
const CUSTOMER = '3d5c2a4e-3d1f-4a6b-9c8d-7e6f5a4b3c2d';
const QUIET = '4e5c2a4e-3d1f-4a6b-9c8d-7e6f5a4b3c2d';
const N = 240;
const STATUSES = ['valid', 'not-valid', 'error', 'unknown'];
const OBJECT_TYPES = ['PrivacyPreservingMonitoring', 'IndividualMonitoring', 'TransactionMonitoring', 'TFHE', 'OffChainZKP', 'ChallengeQuery'];

/** What executionLine(i) holds, to compute expected answers independently of the service. */
const model = Array.from({ length: N }, (_, i) => ({
  id: `exec-${String(i).padStart(4, '0')}`,
  minute: Math.floor(i / 2),
  status: STATUSES[i % 4]!,
  scenario: `scenario-${i % 3}`,
  objectType: OBJECT_TYPES[i % 6]!,
}));
const ascending = [...model].sort((a, b) => a.minute - b.minute || (a.id < b.id ? -1 : 1));

let svc: TestService;
let key: string;

beforeAll(async () => {
  svc = await startTestService([individualLine(P, QUIET), ...model.map((_, i) => executionLine(P, CUSTOMER, i))]);
  key = (await svc.key(P)).key;
});
afterAll(async () => svc?.close());

async function page(query: string): Promise<{ status: number; ids: string[]; next: string | null; body: unknown }> {
  const res = await fetch(`${svc.url}/v1/customers/${CUSTOMER}/scenario-executions${query}`, { headers: { authorization: `Bearer ${key}` } });
  const body = (await res.json()) as { execution_id: string }[];
  const link = res.headers.get('link');
  const next = link === null ? null : /^<([^>]+)>; rel="next"$/.exec(link)![1]!;
  return { status: res.status, ids: res.status === 200 ? body.map((e) => e.execution_id) : [], next, body };
}

/** Follows Link headers from a first query to the end. */
async function all(query: string): Promise<string[]> {
  const ids: string[] = [];
  let p = await page(query);
  ids.push(...p.ids);
  let guard = 0;
  while (p.next !== null && guard++ < 1000) {
    const res = await fetch(`${svc.url}${p.next}`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { execution_id: string }[];
    ids.push(...body.map((e) => e.execution_id));
    const link = res.headers.get('link');
    p = { status: 200, ids: [], next: link === null ? null : /^<([^>]+)>; rel="next"$/.exec(link)![1]!, body };
  }
  return ids;
}

const MINUTE = (m: number): string => new Date(Date.UTC(2024, 0, 1, 0, m)).toISOString();

describe('scenario executions', () => {
  it('returns the first page newest first, 50 by default, ties broken by execution_id', async () => {
    const p = await page('');
    expect(p.status).toBe(200);
    expect(p.ids).toEqual([...ascending].reverse().slice(0, 50).map((e) => e.id));
    expect(p.next).not.toBeNull();
  });

  it('orders by the instant of last_execution_date whatever its offset', async () => {
    const p = await page('?order=asc&limit=200');
    expect(p.ids).toEqual(ascending.slice(0, 200).map((e) => e.id));
  });

  it('pages through every execution exactly once, in order, in both orders', async () => {
    expect(await all('?limit=7')).toEqual([...ascending].reverse().map((e) => e.id));
    expect(await all('?order=asc&limit=13')).toEqual(ascending.map((e) => e.id));
  });

  const cases: [string, (e: (typeof model)[number]) => boolean][] = [
    ['status=error', (e) => e.status === 'error'],
    ['status=error&status=valid', (e) => e.status === 'error' || e.status === 'valid'],
    ['scenarioId=scenario-1', (e) => e.scenario === 'scenario-1'],
    ['objectType=TFHE', (e) => e.objectType === 'TFHE'],
    [`from=${MINUTE(30)}`, (e) => e.minute >= 30],
    [`to=${MINUTE(30)}`, (e) => e.minute < 30],
    [`from=${MINUTE(10)}&to=${MINUTE(20)}`, (e) => e.minute >= 10 && e.minute < 20],
    ['status=valid&scenarioId=scenario-2', (e) => e.status === 'valid' && e.scenario === 'scenario-2'],
    [`status=not-valid&objectType=IndividualMonitoring&from=${MINUTE(5)}`, (e) => e.status === 'not-valid' && e.objectType === 'IndividualMonitoring' && e.minute >= 5],
    [`scenarioId=scenario-0&objectType=PrivacyPreservingMonitoring&to=${MINUTE(100)}&order=asc`, (e) => e.scenario === 'scenario-0' && e.objectType === 'PrivacyPreservingMonitoring' && e.minute < 100],
  ];
  for (const [query, keep] of cases) {
    it(`filters by ${query}, across pages`, async () => {
      const asc = query.includes('order=asc');
      const expected = (asc ? ascending : [...ascending].reverse()).filter(keep).map((e) => e.id);
      expect(expected.length).toBeGreaterThan(0);
      expect(await all(`?${query}&limit=9`)).toEqual(expected);
    });
  }

  it('accepts from/to with an offset, meaning the same instant', async () => {
    const from = MINUTE(30).replace('T00:30:00.000Z', 'T02:30:00+02:00');
    expect(await all(`?from=${encodeURIComponent(from)}&limit=200`)).toEqual(await all(`?from=${MINUTE(30)}&limit=200`));
  });

  it('answers [] for a known customer with no match and 404 for an unknown one', async () => {
    const none = await fetch(`${svc.url}/v1/customers/${QUIET}/scenario-executions`, { headers: { authorization: `Bearer ${key}` } });
    expect(none.status).toBe(200);
    expect(await none.json()).toEqual([]);
    const unknown = await fetch(`${svc.url}/v1/customers/5f5c2a4e-3d1f-4a6b-9c8d-7e6f5a4b3c2d/scenario-executions`, { headers: { authorization: `Bearer ${key}` } });
    expect(unknown.status).toBe(404);
  });

  it('refuses a tampered cursor and a cursor used with other filters with 400', async () => {
    const first = await page('?status=valid&limit=5');
    const cursor = new URL(first.next!, svc.url).searchParams.get('cursor')!;
    const flipped = cursor.slice(0, 3) + (cursor[3] === 'A' ? 'B' : 'A') + cursor.slice(4);
    for (const q of [`?status=valid&limit=5&cursor=${flipped}`, `?status=error&limit=5&cursor=${cursor}`, `?limit=5&cursor=${cursor}`]) {
      const p = await page(q);
      expect(p.status, q).toBe(400);
      expect(p.body).toMatchObject({ code: 'invalid_request', issues: [{ message: expect.stringMatching(/^cursor:/) }] });
    }
    expect((await page(`?status=valid&limit=5&cursor=${cursor}`)).status).toBe(200);
  });

  it.each([
    ['status=bogus', /^status: must be one of: valid, not-valid, error, unknown/],
    ['limit=0', /^limit: must be a whole number from 1 to 200/],
    ['limit=201', /^limit: /],
    ['limit=abc', /^limit: /],
    ['order=sideways', /^order: must be one of: desc, asc/],
    ['from=yesterday', /^from: /],
    ['to=2023-02-30T00:00:00Z', /^to: /],
    ['objectType=tfhe', /^objectType: /],
    ['order=asc&order=desc', /^order: given 2 times/],
    ['page=2', /^page: unknown query parameter/],
    ['constructor=valid', /^constructor: unknown query parameter/],
    ['__proto__=x', /^__proto__: unknown query parameter/],
  ])('rejects %s with 400 naming the parameter', async (query, message) => {
    const p = await page(`?${query}`);
    expect(p.status).toBe(400);
    expect(p.body).toMatchObject({ code: 'invalid_request', issues: [{ message: expect.stringMatching(message) }] });
  });
});
