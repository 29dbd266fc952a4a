/**
 * The alert list's tenant isolation, property-based: random projects holding overlapping alert ids;
 * under any combination of filters, sort, order and page size a key pages through exactly its own
 * project's matching alerts, its counts by status count exactly those, and a cursor from another
 * project's pages (or tampered with) is refused.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALERT_CATEGORIES, ALERT_SEVERITIES, ALERT_STATUSES, ALERT_TYPES } from '../../src/contract/enums.js';
import { listedAlert, listedAlertLine, LIST_CUSTOMERS, type ListedAlert } from '../support/alert-list-records.js';
import { startTestService, type TestService } from '../support/test-service.js';

const RUNS = Number(process.env.HOSTILE_RUNS ?? 150);

/** The random world: projects, and which alert numbers each holds (the same number is the same id in every project). */
const world = fc.sample(
  fc.record({
    projects: fc.uniqueArray(fc.stringMatching(/^[a-z][a-z0-9-]{2,10}$/), { minLength: 2, maxLength: 4 }),
    numbers: fc.uniqueArray(fc.integer({ min: 0, max: 60 }), { minLength: 10, maxLength: 40 }),
  }),
  { numRuns: 1, seed: 515151 },
)[0]!;

const held = new Map<string, ListedAlert[]>();
world.projects.forEach((project, p) => {
  // Overlapping slices: an id held by two projects is two records, one in each.
  held.set(project, world.numbers.filter((_, i) => (i + p) % 3 !== 0).map((n) => listedAlert(project, 7, n)));
});

let svc: TestService;
const keys = new Map<string, string>();
beforeAll(async () => {
  svc = await startTestService([...held.values()].flat().map(listedAlertLine));
  expect(svc.summary.rejected).toBe(0);
  for (const p of world.projects) keys.set(p, (await svc.key(p)).key);
});
afterAll(async () => svc?.close());

async function get(path: string, key: string): Promise<{ status: number; body: unknown; link: string | null }> {
  const res = await fetch(`${svc.url}${path}`, { headers: { authorization: `Bearer ${key}` } });
  return { status: res.status, body: await res.json(), link: res.headers.get('link') };
}

const MAY = (minutes: number): string => new Date(Date.UTC(2024, 4, 1) + minutes * 60_000).toISOString();
const everyFilter = fc.record({
  status: fc.subarray([...ALERT_STATUSES], { minLength: 1 }),
  severity: fc.subarray([...ALERT_SEVERITIES], { minLength: 1 }),
  category: fc.subarray([...ALERT_CATEGORIES], { minLength: 1 }),
  type: fc.subarray([...ALERT_TYPES], { minLength: 1 }),
  customerId: fc.constantFrom(...LIST_CUSTOMERS, LIST_CUSTOMERS[1]!.toUpperCase(), '0a1b2c3d-0000-4000-8000-0000000000ff'),
  assignedTo: fc.constantFrom('analyst-a', 'analyst-b', 'none', 'nobody'),
  seen: fc.boolean(),
  createdFrom: fc.integer({ min: 0, max: 25 }),
  createdTo: fc.integer({ min: 0, max: 25 }),
  updatedFrom: fc.integer({ min: 0, max: 70 }),
  updatedTo: fc.integer({ min: 0, max: 70 }),
});
type Filter = typeof everyFilter extends fc.Arbitrary<infer T> ? T : never;
const FILTER_NAMES = ['status', 'severity', 'category', 'type', 'customerId', 'assignedTo', 'seen', 'createdFrom', 'createdTo', 'updatedFrom', 'updatedTo'] as const;
/** Up to four filters at once (more would rarely leave anything to page through), a sort, an order and a page size. */
const filters = fc
  .record({
    all: everyFilter,
    chosen: fc.subarray([...FILTER_NAMES], { maxLength: 4 }),
    sort: fc.option(fc.constantFrom('updatedAt', 'createdAt'), { nil: undefined }),
    order: fc.option(fc.constantFrom('asc', 'desc'), { nil: undefined }),
    limit: fc.integer({ min: 1, max: 7 }),
  })
  .map(({ all, chosen, sort, order, limit }) => ({
    ...(Object.fromEntries(chosen.map((name) => [name, all[name]])) as Partial<Filter>),
    sort,
    order,
    limit,
  }));
type Filters = typeof filters extends fc.Arbitrary<infer T> ? T : never;

function query(f: Filters): string {
  const q = new URLSearchParams();
  for (const name of ['status', 'severity', 'category', 'type'] as const) for (const v of f[name] ?? []) q.append(name, v);
  for (const name of ['customerId', 'assignedTo', 'sort', 'order'] as const) if (f[name] !== undefined) q.set(name, f[name]);
  if (f.seen !== undefined) q.set('seen', String(f.seen));
  for (const name of ['createdFrom', 'createdTo', 'updatedFrom', 'updatedTo'] as const) if (f[name] !== undefined) q.set(name, MAY(f[name]));
  q.set('limit', String(f.limit));
  return q.toString();
}

/** What the filters keep of a project's alerts, in the answer's order. */
function expected(project: string, f: Filters): string[] {
  const within = (set: readonly string[] | undefined, v: string): boolean => set === undefined || set.length === 0 || set.includes(v);
  const at = (a: ListedAlert): number => (f.sort === 'createdAt' ? a.createdMs : a.updatedMs);
  const kept = held.get(project)!.filter(
    (a) =>
      within(f.status, a.record.status) &&
      within(f.severity, a.record.severity) &&
      within(f.category, a.record.category) &&
      within(f.type, a.record.type) &&
      (f.customerId === undefined || f.customerId.toLowerCase() === a.record.customerId.toLowerCase()) &&
      (f.assignedTo === undefined || (f.assignedTo === 'none' ? a.record.assignedTo === null : a.record.assignedTo === f.assignedTo)) &&
      (f.seen === undefined || a.record.seen === f.seen) &&
      (f.createdFrom === undefined || a.createdMs >= Date.parse(MAY(f.createdFrom))) &&
      (f.createdTo === undefined || a.createdMs < Date.parse(MAY(f.createdTo))) &&
      (f.updatedFrom === undefined || a.updatedMs >= Date.parse(MAY(f.updatedFrom))) &&
      (f.updatedTo === undefined || a.updatedMs < Date.parse(MAY(f.updatedTo))),
  );
  const asc = kept.sort((a, b) => at(a) - at(b) || (a.record.id < b.record.id ? -1 : 1)).map((a) => a.record.id);
  return f.order === 'asc' ? asc : asc.reverse();
}

describe('alert list isolation', () => {
  it('pages through exactly its own project’s matching alerts, under any filters', async () => {
    let found = 0;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...world.projects), filters, async (project, f) => {
        const key = keys.get(project)!;
        let r = await get(`/v1/alerts?${query(f)}`, key);
        const seen: string[] = [];
        for (let guard = 0; guard < 100; guard++) {
          expect(r.status).toBe(200);
          const page = r.body as { id: string; cmsProjectId: string }[];
          for (const a of page) expect(a.cmsProjectId).toBe(project);
          seen.push(...page.map((a) => a.id));
          if (r.link === null) break;
          r = await get(/^<([^>]+)>/.exec(r.link)![1]!, key);
        }
        expect(seen).toEqual(expected(project, f));
        if (seen.length > 0) found++;
      }),
      { numRuns: RUNS },
    );
    // Not merely empty answers agreeing: many filter combinations find alerts.
    expect(found).toBeGreaterThan(RUNS / 5);
  });

  it('counts exactly its own project’s matching alerts by status, under any filters', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...world.projects), filters, async (project, f) => {
        const { status: _status, ...rest } = f;
        const countable = { ...rest, sort: undefined, order: undefined };
        const q = new URLSearchParams(query(countable));
        q.delete('limit');
        const r = await get(`/v1/alerts/counts?${q.toString()}`, keys.get(project)!);
        expect(r.status).toBe(200);
        const ids = new Set(expected(project, countable));
        const kept = held.get(project)!.filter((a) => ids.has(a.record.id));
        expect(r.body).toEqual({ total: kept.length, byStatus: Object.fromEntries(ALERT_STATUSES.map((s) => [s, kept.filter((a) => a.record.status === s).length])) });
      }),
      { numRuns: Math.max(20, Math.floor(RUNS / 3)) },
    );
  });

  it('refuses a cursor taken from another project’s pages, or tampered with', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...world.projects), fc.constantFrom(...world.projects), filters, fc.nat(60), async (a, b, f, flip) => {
        const first = await get(`/v1/alerts?${query({ ...f, limit: 1 })}`, keys.get(a)!);
        if (first.link === null) return;
        const next = new URL(/^<([^>]+)>/.exec(first.link)![1]!, svc.url);
        const cursor = next.searchParams.get('cursor')!;
        const i = flip % cursor.length;
        const tampered = cursor.slice(0, i) + (cursor[i] === 'A' ? 'B' : 'A') + cursor.slice(i + 1);
        next.searchParams.set('cursor', a === b ? tampered : cursor);
        const replay = await get(`${next.pathname}${next.search}`, keys.get(b)!);
        expect(replay.status).toBe(400);
        expect(replay.body).toMatchObject({ code: 'invalid_request', issues: [{ message: expect.stringMatching(/^cursor: /) }] });
      }),
      { numRuns: Math.max(20, Math.floor(RUNS / 3)) },
    );
  });
});
