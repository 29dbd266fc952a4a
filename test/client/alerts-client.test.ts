/** The client's alert list: one page and its next, every page through the iterator, filters typed by the contract; the counts by status. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Alert } from '../../src/contract/alert.js';
import { alertSummaryOf } from '../../src/contract/alert-summary.js';
import { ClientError, createClient, type AlertsQuery, type ComplianceClient } from '../../src/client/client.js';
import { ALERT_STATUSES } from '../../src/contract/enums.js';
import { listedAlert, listedAlertLine } from '../support/alert-list-records.js';
import { startTestService, type TestService } from '../support/test-service.js';

const PROJECT = 'proj-alert-client';
const alerts = Array.from({ length: 12 }, (_, i) => listedAlert(PROJECT, 5, i));
/** Newest createdAt last: ascending createdAt, ties by id. */
const byCreated = [...alerts].sort((a, b) => a.createdMs - b.createdMs || (a.record.id < b.record.id ? -1 : 1));

let service: TestService;
let client: ComplianceClient;

beforeAll(async () => {
  service = await startTestService(alerts.map(listedAlertLine));
  expect(service.summary.rejected).toBe(0);
  client = createClient({ baseUrl: `${service.url}/v1`, apiKey: (await service.key(PROJECT)).key });
});
afterAll(async () => service?.close());

describe('client alert list', () => {
  it('lists one page of summaries and follows Link rel=next to the next', async () => {
    const first = await client.listAlerts({ sort: 'createdAt', order: 'asc', limit: 5 });
    expect(first.items).toEqual(byCreated.slice(0, 5).map((a) => alertSummaryOf(a.record as unknown as Alert)));
    expect(first.nextUrl).toMatch(/\/v1\/alerts\?.*cursor=/);
    const second = await first.next!();
    expect(second.items.map((s) => s.id)).toEqual(byCreated.slice(5, 10).map((a) => a.record.id));
  });

  it('iterates every summary matching repeated filters, page after page', async () => {
    const query: AlertsQuery = { status: ['Open', 'Closed'], sort: 'createdAt', order: 'asc', limit: 1 };
    const ids: string[] = [];
    for await (const summary of client.iterateAlerts(query)) ids.push(summary.id);
    const expected = byCreated.filter((a) => ['Open', 'Closed'].includes(a.record.status)).map((a) => a.record.id);
    expect(expected.length).toBeGreaterThan(1);
    expect(ids).toEqual(expected);
  });

  it('throws a ClientError naming a bad parameter', async () => {
    const error = await client.listAlerts({ createdFrom: '2024-02-30' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClientError);
    expect((error as ClientError).status).toBe(400);
    expect((error as ClientError).body.issues?.[0]?.message).toMatch(/^createdFrom: /);
  });

  it('counts the alerts matching repeated filters by status, every status present', async () => {
    const counts = await client.countAlerts({ severity: ['High', 'Low'] });
    const kept = alerts.filter((a) => ['High', 'Low'].includes(a.record.severity));
    expect(counts.total).toBe(kept.length);
    expect(counts.byStatus).toEqual(Object.fromEntries(ALERT_STATUSES.map((s) => [s, kept.filter((a) => a.record.status === s).length])));
  });
});
