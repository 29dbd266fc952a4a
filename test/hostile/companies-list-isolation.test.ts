/**
 * The company list never crosses projects and never lets a search be read as a query language:
 * any combination of filters and search text answers only the key's project's companies, with
 * 200 or a 400 naming a parameter, never a 500; another project's cursor is refused.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COUNTRY_ALPHA3_CODES, CUSTOMER_STATUSES, ONBOARDING_LEVELS, RISK_SCORES } from '../../src/contract/enums.js';
import { companySpecLine, numberedId, type CompanySpec } from '../support/companies.js';
import { startTestService, type TestService } from '../support/test-service.js';

const RUNS = Number(process.env.HOSTILE_RUNS ?? 150);
const PROJECTS = ['proj-a', 'proj-b'];
const NAMES = ['ACME Exchange', 'Société Générale', 'Near Holdings', 'OR AND NOT', 'Ünïcødé 株式会社', 'Trading "Quoted" Ltd'];
const specs: CompanySpec[] = PROJECTS.flatMap((project, p) =>
  Array.from({ length: 12 }, (_, i) => ({
    id: numberedId(i, p === 0 ? 'aaaa' : 'bbbb'),
    project,
    name: `${NAMES[i % NAMES.length]} ${i}`,
    registrationNumber: `HRB ${100 + i}-${i}`,
    externalId: `ext-${project}-${i}`,
    status: CUSTOMER_STATUSES[i % 3],
    onboardingLevel: ONBOARDING_LEVELS[i % 2],
    riskScore: RISK_SCORES[i % 4],
    country: ['FRA', 'DEU', 'GBR'][i % 3],
    updatedAt: new Date(Date.UTC(2024, 0, 1 + (i % 5))).toISOString(),
  })),
);
const idsOf = (project: string): Set<string> => new Set(specs.filter((s) => s.project === project).map((s) => s.id));

let svc: TestService;
const keys: Record<string, string> = {};
beforeAll(async () => {
  svc = await startTestService(specs.map(companySpecLine));
  for (const p of PROJECTS) keys[p] = (await svc.key(p)).key;
});
afterAll(async () => svc?.close());

const get = (project: string, query: string): Promise<Response> =>
  fetch(`${svc.url}/v1/companies?${query}`, { headers: { authorization: `Bearer ${keys[project]}` } });

// Search text: FTS5 and tsquery syntax, unicode, and words of either project.
const searchText = fc.oneof(
  fc.constantFrom('"', '*', 'NEAR', 'NEAR(a b)', ':', '&', '|', '!', '(', ')', 'a:*', "'", '\\', 'acme OR x', '-acme', '^acme', 'ext-proj-b', 'proj', 'société', '株式', 'names:acme', '{names}: acme', 'a & !b | (c)', '"acme'),
  fc.string({ minLength: 1, maxLength: 30 }),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }),
  fc.array(fc.constantFrom('acme', 'exch', 'hrb', '10', 'near', 'ltd', '"', '*', ':', '(', 'ünï'), { minLength: 1, maxLength: 5 }).map((w) => w.join(' ')),
);
const query = fc.record(
  {
    status: fc.subarray([...CUSTOMER_STATUSES], { maxLength: 3 }),
    onboardingLevel: fc.subarray([...ONBOARDING_LEVELS], { maxLength: 2 }),
    riskScore: fc.subarray([...RISK_SCORES], { maxLength: 2 }),
    country: fc.subarray(['FRA', 'DEU', 'GBR', COUNTRY_ALPHA3_CODES[0]!], { maxLength: 2 }),
    updatedFrom: fc.constantFrom('2024-01-02', '2024-01-03T00:00:00Z'),
    updatedTo: fc.constantFrom('2024-01-04', '2024-01-05T12:00:00+02:00'),
    q: searchText,
    limit: fc.integer({ min: 1, max: 5 }),
  },
  { requiredKeys: [] },
);

function searchOf(q: Record<string, unknown>): string {
  const s = new URLSearchParams();
  for (const [name, value] of Object.entries(q)) for (const v of Array.isArray(value) ? value : [value]) s.append(name, String(v));
  return s.toString();
}

describe('company list isolation', () => {
  it("answers any filters and search with only the key's project's companies, never an error", async () => {
    let nonEmpty = 0;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...PROJECTS), query, async (project, q) => {
        const res = await get(project, searchOf(q));
        const body = (await res.json()) as { id: string }[] | { code: string; issues: { message: string }[] };
        // Only text a parameter cannot hold (a lone surrogate, a NUL) is refused, and named.
        if (res.status === 400) {
          expect((body as { issues: { message: string }[] }).issues[0]!.message).toMatch(/^q:/);
          return;
        }
        expect(res.status).toBe(200);
        const own = idsOf(project);
        for (const c of body as { id: string }[]) expect(own.has(c.id)).toBe(true);
        if ((body as unknown[]).length > 0) nonEmpty++;
      }),
      { numRuns: RUNS },
    );
    // Not vacuous: some combinations found companies.
    expect(nonEmpty).toBeGreaterThan(0);
  });

  it('finds search words of another project nowhere', async () => {
    for (const q of ['ext proj b', 'extprojb0', 'proj b']) {
      const res = await get('proj-a', `q=${encodeURIComponent(q)}`);
      expect(await res.json()).toEqual([]);
    }
    expect(((await (await get('proj-b', 'q=extprojb0')).json()) as { id: string }[]).map((c) => c.id)).toEqual([numberedId(0, 'bbbb')]);
  });

  it("refuses another project's cursor, with the same filters", async () => {
    for (const query of ['limit=2', 'limit=1&q=acme', 'limit=2&status=Active&country=FRA']) {
      const res = await get('proj-b', query);
      const link = res.headers.get('link')!;
      expect(link).toMatch(/rel="next"/);
      const cursor = new URL(/^<([^>]+)>/.exec(link)![1]!, svc.url).searchParams.get('cursor')!;
      const refused = await get('proj-a', `${query}&cursor=${encodeURIComponent(cursor)}`);
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({ code: 'invalid_request', issues: [{ message: expect.stringMatching(/^cursor:/) }] });
    }
  });
});
