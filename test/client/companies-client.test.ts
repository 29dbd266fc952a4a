/** The client's company list: one page with its next, every item through the pages, filters and search as the service reads them. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientError, createClient, type ComplianceClient } from '../../src/client/client.js';
import { companySpecLine, numberedId, summaryOfSpec, type CompanySpec } from '../support/companies.js';
import { startTestService, type TestService } from '../support/test-service.js';

const PROJECT = 'proj-client';
const specs: CompanySpec[] = Array.from({ length: 7 }, (_, i) => ({
  id: numberedId(i),
  project: PROJECT,
  name: i === 3 ? 'Société Générale' : `Company ${i}`,
  registrationNumber: `HRB ${i}-${i}`,
  status: i % 2 === 0 ? 'Active' : 'Dormant',
  country: i < 4 ? 'FRA' : 'DEU',
  updatedAt: `2024-05-0${i + 1}T08:00:00Z`,
}));
const newestFirst = [...specs].reverse();

let service: TestService;
let client: ComplianceClient;
let requests: string[];

beforeAll(async () => {
  service = await startTestService(specs.map(companySpecLine));
  const { key } = await service.key(PROJECT);
  requests = [];
  client = createClient({
    baseUrl: `${service.url}/v1`,
    apiKey: key,
    fetch: (input, init) => {
      requests.push(String(input));
      return fetch(input, init);
    },
  });
});
afterAll(async () => service?.close());

describe('client company list', () => {
  it('lists one page of summaries, and its next page through the Link header', async () => {
    const first = await client.listCompanies({ limit: 3 });
    expect(first.items).toEqual(newestFirst.slice(0, 3).map(summaryOfSpec));
    expect(first.nextUrl).toMatch(/\/v1\/companies\?limit=3&cursor=/);
    const second = await first.next!();
    expect(second.items).toEqual(newestFirst.slice(3, 6).map(summaryOfSpec));
  });

  it('iterates every summary matching the filters, repeated values and search included', async () => {
    const all: string[] = [];
    for await (const c of client.iterateCompanies({ limit: 2 })) all.push(c.id);
    expect(all).toEqual(newestFirst.map((s) => s.id));
    const filtered: string[] = [];
    for await (const c of client.iterateCompanies({ limit: 1, status: ['Active', 'Dormant'], country: 'FRA', order: 'asc' })) filtered.push(c.id);
    expect(filtered).toEqual(specs.filter((s) => s.country === 'FRA').map((s) => s.id));
    expect(requests.some((u) => u.includes('status=Active&status=Dormant&country=FRA'))).toBe(true);
    const found = await client.listCompanies({ q: 'societe' });
    expect(found.items.map((c) => c.companyName)).toEqual(['Société Générale']);
    expect(found.nextUrl).toBeUndefined();
  });

  it('throws the service refusal as a ClientError', async () => {
    const error = (await client.listCompanies({ q: 'x', order: 'asc' }).catch((e: unknown) => e)) as ClientError;
    expect(error).toBeInstanceOf(ClientError);
    expect(error.status).toBe(400);
    expect(error.code).toBe('invalid_request');
  });
});
