/** The alert counts over real HTTP: totals by status under the list's filters, every status present, refusals as error bodies, the access log. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALERT_STATUSES } from '../../src/contract/enums.js';
import { openApiDocument } from '../../src/http/openapi/openapi-document.js';
import { listedAlert, listedAlertLine, LIST_CUSTOMERS, type ListedAlert } from '../support/alert-list-records.js';
import { startTestService, type TestService } from '../support/test-service.js';

const P = 'proj-counts';
const OTHER = 'proj-counts-other';
const alerts = Array.from({ length: 60 }, (_, i) => listedAlert(P, 3, i));
const others = Array.from({ length: 7 }, (_, i) => listedAlert(OTHER, 4, i));

let svc: TestService;
let key: { key: string; id: string };
beforeAll(async () => {
  svc = await startTestService([...alerts, ...others].map(listedAlertLine));
  key = await svc.key(P);
});
afterAll(async () => svc?.close());

async function counts(query: string, bearer = key.key): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${svc.url}/v1/alerts/counts${query}`, { headers: { authorization: `Bearer ${bearer}` } });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** The expected answer, counted from the model. */
function expected(items: ListedAlert[]): { total: number; byStatus: Record<string, number> } {
  const byStatus = Object.fromEntries(ALERT_STATUSES.map((s) => [s, items.filter((a) => a.record.status === s).length]));
  return { total: items.length, byStatus };
}

const MAY = (minutes: number): string => new Date(Date.UTC(2024, 4, 1) + minutes * 60_000).toISOString();

describe('alert counts', () => {
  it('counts every alert of the project by status, every status present', async () => {
    const r = await counts('');
    expect(r.status).toBe(200);
    expect(r.body).toEqual(expected(alerts));
    expect(Object.keys(r.body.byStatus as object)).toEqual([...ALERT_STATUSES]);
  });

  it('counts under the list’s filters, a status nothing has as zero', async () => {
    const cases: [string, (a: ListedAlert) => boolean][] = [
      ['?severity=High&severity=Low', (a) => ['High', 'Low'].includes(a.record.severity)],
      [`?customerId=${LIST_CUSTOMERS[1]!.toUpperCase()}`, (a) => a.record.customerId.toLowerCase() === LIST_CUSTOMERS[1]],
      ['?assignedTo=none&seen=false', (a) => a.record.assignedTo === null && !a.record.seen],
      [`?createdFrom=${MAY(5)}&updatedTo=${MAY(40)}`, (a) => a.createdMs >= Date.parse(MAY(5)) && a.updatedMs < Date.parse(MAY(40))],
      [`?customerId=${LIST_CUSTOMERS[0]}&type=${alerts[0]!.record.type}`, (a) => a.record.customerId === LIST_CUSTOMERS[0] && a.record.type === alerts[0]!.record.type],
    ];
    for (const [query, keep] of cases) {
      const want = expected(alerts.filter(keep));
      expect(want.total, query).toBeGreaterThan(0);
      expect(await counts(query), query).toEqual({ status: 200, body: want });
    }
    const none = await counts('?assignedTo=nobody');
    expect(none.body).toEqual({ total: 0, byStatus: Object.fromEntries(ALERT_STATUSES.map((s) => [s, 0])) });
  });

  it('counts only the key’s own project', async () => {
    expect((await counts('', (await svc.key(OTHER)).key)).body).toEqual(expected(others));
  });

  it('refuses status, paging parameters and bad values with the contract’s error body, and a key without alerts:read', async () => {
    for (const query of ['?status=Open', '?limit=5', '?sort=createdAt', '?cursor=x', '?severity=Huge', '?createdFrom=2024-02-30', '?seen=maybe']) {
      const r = await counts(query);
      expect(r.status, query).toBe(400);
      expect(r.body, query).toMatchObject({ code: 'invalid_request', message: expect.any(String) });
    }
    const narrow = (await svc.key(P, { scopes: ['companies:read'] })).key;
    expect(await counts('', narrow)).toMatchObject({ status: 403, body: { code: 'forbidden' } });
  });

  it('is recorded in the access log under its route, naming no record', async () => {
    const reader = await svc.key(P);
    await counts('?seen=true', reader.key);
    let mine: { route: string; recordId: string | null; status: number; records?: readonly string[] }[] = [];
    for (let i = 0; i < 100 && mine.length === 0; i++) {
      mine = (await svc.store.queryAccessLog({ project: P, limit: 1000 })).filter((e) => e.keyId === reader.id);
      if (mine.length === 0) await new Promise((r) => setTimeout(r, 50));
    }
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ route: '/v1/alerts/counts', recordId: null, status: 200 });
    expect(mine[0]!.records).toBeUndefined();
  });

  it('is described in the OpenAPI document with the list’s filters and AlertCounts', () => {
    const doc = openApiDocument({ basePath: '/v1', version: 'test' }) as unknown as {
      paths: Record<string, { get: { operationId: string; parameters: { name?: string }[]; responses: Record<string, { content: Record<string, { schema: unknown }> }> } }>;
      components: { schemas: Record<string, { required?: string[] }> };
    };
    const op = doc.paths['/alerts/counts']!.get;
    expect(op.operationId).toBe('countAlerts');
    expect(op.parameters.map((p) => p.name)).toEqual(['severity', 'category', 'type', 'customerId', 'assignedTo', 'seen', 'createdFrom', 'createdTo', 'updatedFrom', 'updatedTo', 'If-None-Match']);
    expect(op.responses['200']!.content['application/json']!.schema).toMatchObject({ title: 'AlertCounts', required: ['total', 'byStatus'], properties: { byStatus: { $ref: '#/components/schemas/AlertCountsByStatus' } } });
    expect(doc.components.schemas.AlertCountsByStatus!.required).toEqual([...ALERT_STATUSES]);
  });
});
