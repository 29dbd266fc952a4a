/**
 * Tenant isolation, property-based: random projects, keys and records; for every route, filter and
 * cursor (including other projects' cursors and tampered ones), a key sees only its own project's
 * records, and another project's record answers exactly like a missing one.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertLine, companyLine, executionLine, individualLine } from '../support/records.js';
import { startTestService, type TestService } from '../support/test-service.js';

const RUNS = Number(process.env.HOSTILE_RUNS ?? 150);
const uuid = (n: number): string => `${n.toString(16).padStart(8, '0')}-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

/** The random world: projects, and which customer and alert ids each holds (ids deliberately shared across projects). */
const world = fc.sample(
  fc.record({
    projects: fc.uniqueArray(fc.stringMatching(/^[a-z][a-z0-9-]{2,10}$/), { minLength: 2, maxLength: 4 }),
    companyIds: fc.uniqueArray(fc.integer({ min: 1, max: 40 }), { minLength: 4, maxLength: 10 }),
    alertIds: fc.uniqueArray(fc.integer({ min: 100, max: 140 }), { minLength: 3, maxLength: 8 }),
    executions: fc.integer({ min: 5, max: 30 }),
  }),
  { numRuns: 1, seed: 424242 },
)[0]!;

interface Owned {
  companies: Set<string>;
  alerts: Set<string>;
  customers: Map<string, string[]>; // customer → its execution ids
}
const owned = new Map<string, Owned>();
const lines: string[] = [];
world.projects.forEach((project, p) => {
  const o: Owned = { companies: new Set(), alerts: new Set(), customers: new Map() };
  owned.set(project, o);
  // Each project holds an overlapping slice of the ids: the same id in two projects is two records.
  world.companyIds.filter((_, i) => (i + p) % 3 !== 0).forEach((n) => {
    lines.push(companyLine(project, uuid(n), uuid(9000 + n)));
    o.companies.add(uuid(n));
    const execs: string[] = [];
    for (let i = 0; i < (n % world.executions) + 1; i++) {
      lines.push(executionLine(project, uuid(n), i + p * 1000));
      execs.push(`exec-${String(i + p * 1000).padStart(4, '0')}`);
    }
    o.customers.set(uuid(n), execs);
  });
  world.alertIds.filter((_, i) => (i + p) % 2 === 0).forEach((n) => {
    lines.push(alertLine(project, uuid(n), uuid(world.companyIds[0]!), uuid(9500 + n)));
    o.alerts.add(uuid(n));
  });
  lines.push(individualLine(project, uuid(5000 + p)));
  o.customers.set(uuid(5000 + p), []); // known, with no executions
});

let svc: TestService;
const keys = new Map<string, string>();
beforeAll(async () => {
  svc = await startTestService(lines);
  for (const p of world.projects) keys.set(p, (await svc.key(p)).key);
});
afterAll(async () => svc?.close());

async function get(path: string, key: string): Promise<{ status: number; body: unknown; link: string | null }> {
  const res = await fetch(`${svc.url}${path}`, { headers: { authorization: `Bearer ${key}` } });
  return { status: res.status, body: await res.json(), link: res.headers.get('link') };
}

const allIds = [...world.companyIds, ...world.alertIds, 5000, 5001, 7777].map(uuid);
const anyProject = fc.constantFrom(...world.projects);
const anyId = fc.constantFrom(...allIds);
const filters = fc.record(
  {
    status: fc.subarray(['valid', 'not-valid', 'error', 'unknown']),
    order: fc.constantFrom('asc', 'desc'),
    limit: fc.integer({ min: 1, max: 7 }),
    scenarioId: fc.constantFrom('scenario-0', 'scenario-1', 'scenario-2'),
    from: fc.constantFrom('2024-01-01T00:03:00Z', '2024-01-01'),
  },
  { requiredKeys: ['limit'] },
);

function query(f: { status?: string[]; order?: string; limit: number; scenarioId?: string; from?: string }): string {
  const q = new URLSearchParams();
  for (const s of f.status ?? []) q.append('status', s);
  if (f.order) q.set('order', f.order);
  if (f.scenarioId) q.set('scenarioId', f.scenarioId);
  if (f.from) q.set('from', f.from);
  q.set('limit', String(f.limit));
  return q.toString();
}

describe('tenant isolation', () => {
  it('answers a company only to its own project, and another project’s company exactly like a missing one', async () => {
    await fc.assert(
      fc.asyncProperty(anyProject, anyId, async (project, id) => {
        const r = await get(`/v1/companies/${id}/details`, keys.get(project)!);
        if (owned.get(project)!.companies.has(id)) {
          expect(r.status).toBe(200);
          expect((r.body as { cmsProjectId: string }).cmsProjectId).toBe(project);
        } else {
          expect(r.status).toBe(404);
          expect(r.body).toEqual({ message: 'no company with this id', code: 'not_found', issues: [] });
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('answers an alert only to its own project', async () => {
    await fc.assert(
      fc.asyncProperty(anyProject, anyId, fc.boolean(), async (project, id, upper) => {
        const r = await get(`/v1/alerts/${upper ? id.toUpperCase() : id}`, keys.get(project)!);
        if (owned.get(project)!.alerts.has(id)) expect((r.body as { cmsProjectId: string }).cmsProjectId).toBe(project);
        else expect([r.status, r.body]).toEqual([404, { message: 'no alert with this id', code: 'not_found', issues: [] }]);
      }),
      { numRuns: RUNS },
    );
  });

  it('pages only through its own project’s executions, under any filters', async () => {
    await fc.assert(
      fc.asyncProperty(anyProject, anyId, filters, async (project, id, f) => {
        const key = keys.get(project)!;
        const mine = owned.get(project)!.customers.get(id);
        let r = await get(`/v1/customers/${id}/scenario-executions?${query(f)}`, key);
        if (mine === undefined) {
          expect([r.status, (r.body as { code: string }).code]).toEqual([404, 'not_found']);
          return;
        }
        const seen: string[] = [];
        for (let guard = 0; guard < 100; guard++) {
          expect(r.status).toBe(200);
          seen.push(...(r.body as { execution_id: string }[]).map((e) => e.execution_id));
          if (r.link === null) break;
          r = await get(/^<([^>]+)>/.exec(r.link)![1]!, key);
        }
        for (const e of seen) expect(mine ?? []).toContain(e);
      }),
      { numRuns: RUNS },
    );
  });

  it('refuses a cursor taken from another project’s pages, or tampered with', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...world.projects), fc.constantFrom(...world.projects), fc.nat(60), async (a, b, flip) => {
        const shared = [...owned.get(a)!.customers.keys()].find((c) => owned.get(b)!.customers.has(c));
        if (shared === undefined) return;
        const first = await get(`/v1/customers/${shared}/scenario-executions?limit=1`, keys.get(a)!);
        if (first.link === null) return;
        const next = /^<([^>]+)>/.exec(first.link)![1]!;
        const cursor = new URL(next, svc.url).searchParams.get('cursor')!;
        const i = flip % cursor.length;
        const tampered = cursor.slice(0, i) + (cursor[i] === 'A' ? 'B' : 'A') + cursor.slice(i + 1);
        const replay = await get(`/v1/customers/${shared}/scenario-executions?limit=1&cursor=${encodeURIComponent(a === b ? tampered : cursor)}`, keys.get(b)!);
        expect(replay.status).toBe(400);
        expect((replay.body as { code: string }).code).toBe('invalid_request');
      }),
      { numRuns: Math.max(20, Math.floor(RUNS / 3)) },
    );
  });
});
