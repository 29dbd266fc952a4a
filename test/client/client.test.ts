import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Execution } from '../../src/contract/index.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { ClientError, createClient, nextLink, type ComplianceClient, type ScenarioExecutionsQuery } from '../../src/client/client.js';

const PROJECT = 'proj-client';
const COMPANY_ID = '5a0c3e1f-7b2d-4c6e-9f8a-1b2c3d4e5f60';
const ALERT_ID = '0d9e8f7a-6b5c-4d3e-8f2a-1b0c9d8e7f6a';
const WHEN = '2024-05-01T10:00:00Z';

// Five executions a day apart; statuses alternate so a filter picks some.
const STATUSES = ['valid', 'error', 'valid', 'not-valid', 'valid'] as const;
const executions = STATUSES.map((status, i) => ({
  execution_id: `exec-${i + 1}`,
  execution_status: status,
  last_execution_date: `2024-05-0${i + 1}T08:00:00Z`,
  scenario_executions: [{ scenarioId: 'scn-1', scenarioStatus: status, rules: [] }],
}));

const company = {
  id: COMPANY_ID, cmsProjectId: PROJECT, riskScore: 'Low', type: 'Company', onboardingLevel: 'KYB', status: 'Active',
  createdAt: WHEN, updatedAt: WHEN,
};

const alert = {
  id: ALERT_ID, severity: 'Medium', category: 'Onboarding', type: 'Fraud', status: 'Open', name: 'Velocity',
  description: null, assignedTo: null, seen: false, customerId: COMPANY_ID, cmsProjectId: PROJECT, createdAt: WHEN,
  updatedAt: WHEN, createdBy: 'system', updatedBy: 'system', reason: null, audits: [],
};

// Import envelopes, one NDJSON line each; the service under test runs on the store TEST_STORE names.
const lines = [
  JSON.stringify({ kind: 'customer', record: company }),
  JSON.stringify({ kind: 'alert', record: alert }),
  ...executions.map((record) => JSON.stringify({ kind: 'execution', customerId: COMPANY_ID, cmsProjectId: PROJECT, record })),
];

let service: TestService;
let baseUrl: string;
let client: ComplianceClient;
let requests: string[];

beforeAll(async () => {
  service = await startTestService(lines);
  expect(service.summary.rejected).toBe(0);
  baseUrl = `${service.url}/v1`;
  const { key } = await service.key(PROJECT);
  requests = [];
  const recordingFetch: typeof fetch = (input, init) => {
    requests.push(String(input));
    return fetch(input, init);
  };
  client = createClient({ baseUrl, apiKey: key, fetch: recordingFetch });
});

afterAll(async () => {
  await service?.close();
});

const ids = (items: readonly Execution[]) => items.map((e) => e.execution_id);

describe('createClient', () => {
  it('gets company details as stored', async () => {
    expect(await client.getCompanyDetails(COMPANY_ID)).toEqual(company);
  });

  it('gets an alert, whatever the letter case of its id', async () => {
    expect(await client.getAlert(ALERT_ID.toUpperCase())).toEqual(alert);
  });

  it('gets one page of executions and follows Link rel=next to the following one', async () => {
    const first = await client.getCustomerScenarioExecutions(COMPANY_ID, { limit: 2 });
    expect(ids(first.items)).toEqual(['exec-5', 'exec-4']);
    expect(first.nextUrl).toMatch(new RegExp(`^${baseUrl}/customers/${COMPANY_ID}/scenario-executions\\?.*cursor=`));
    const second = await first.next!();
    expect(ids(second.items)).toEqual(['exec-3', 'exec-2']);
    const last = await second.next!();
    expect(ids(last.items)).toEqual(['exec-1']);
    expect(last.next).toBeUndefined();
    expect(last.nextUrl).toBeUndefined();
  });

  it('iterates every page, keeping the filters and order', async () => {
    const seen: string[] = [];
    for await (const execution of client.iterateScenarioExecutions(COMPANY_ID, { limit: 1 })) seen.push(execution.execution_id);
    expect(seen).toEqual(['exec-5', 'exec-4', 'exec-3', 'exec-2', 'exec-1']);

    const filtered: string[] = [];
    const query: ScenarioExecutionsQuery = { status: ['valid', 'error'], order: 'asc', limit: 2 };
    for await (const execution of client.iterateScenarioExecutions(COMPANY_ID, query)) filtered.push(execution.execution_id);
    expect(filtered).toEqual(['exec-1', 'exec-2', 'exec-3', 'exec-5']);
  });

  it('sends a repeatable parameter once per value, and a single value as is', async () => {
    requests.length = 0;
    await client.getCustomerScenarioExecutions(COMPANY_ID, { status: ['valid', 'error'], from: '2024-05-02' });
    await client.getCustomerScenarioExecutions(COMPANY_ID, { status: 'error' });
    expect(new URL(requests[0]!).searchParams.getAll('status')).toEqual(['valid', 'error']);
    expect(new URL(requests[0]!).searchParams.get('from')).toBe('2024-05-02');
    expect(new URL(requests[1]!).searchParams.getAll('status')).toEqual(['error']);
  });

  it('throws a ClientError with status and error body on 404', async () => {
    const error = await client.getAlert('00000000-0000-4000-8000-000000000000').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClientError);
    const e = error as ClientError;
    expect(e.status).toBe(404);
    expect(e.code).toBe('not_found');
    expect(e.body).toMatchObject({ code: 'not_found', message: expect.any(String) });
    expect(e.requestId).toBeTruthy();
  });

  it('throws a ClientError naming the bad parameter on 400', async () => {
    const error = (await client.getCustomerScenarioExecutions(COMPANY_ID, { limit: 0 }).catch((e: unknown) => e)) as ClientError;
    expect(error.status).toBe(400);
    expect(error.code).toBe('invalid_request');
    expect(error.body.issues?.[0]?.message).toMatch(/^limit/);
  });

  it('throws a ClientError on 401 for an unknown key', async () => {
    const stranger = createClient({ baseUrl: baseUrl, apiKey: 'crs_000000000000_' + 'x'.repeat(43) });
    await expect(stranger.getCompanyDetails(COMPANY_ID)).rejects.toMatchObject({ status: 401, code: 'unauthorized' });
  });

  it('types the query from the contract', () => {
    const ok: ScenarioExecutionsQuery = { status: 'valid', objectType: 'TFHE', order: 'desc', limit: 10, from: '2024-01-01' };
    // @ts-expect-error not an ExecutionStatus
    const badStatus: ScenarioExecutionsQuery = { status: 'done' };
    // @ts-expect-error limit is a number
    const badLimit: ScenarioExecutionsQuery = { limit: '10' };
    // @ts-expect-error not a parameter of the operation
    const unknown: ScenarioExecutionsQuery = { page: 2 };
    expect([ok, badStatus, badLimit, unknown]).toHaveLength(4);
  });
});

describe('nextLink', () => {
  it('finds rel=next among several links, quoted or not', () => {
    expect(nextLink('</v1/x?cursor=a>; rel="next"')).toBe('/v1/x?cursor=a');
    expect(nextLink('</p>; rel=prev, </n>; rel=next')).toBe('/n');
    expect(nextLink('</a>; title="x"; rel="last next"')).toBe('/a');
  });

  it('finds nothing without a next link', () => {
    expect(nextLink(null)).toBeUndefined();
    expect(nextLink('</p>; rel="prev"')).toBeUndefined();
  });
});
