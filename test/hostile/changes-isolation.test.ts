/**
 * The change feed's isolation, property-based: random projects sharing record ids; whatever page
 * size and starting point, a key sees only its own project's changes, another project's cursor is
 * refused, and a key without changes:read is refused.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catchUp, feedPage, feedSettled, plainCustomerLine } from '../support/changes-feed.js';
import { executionLine } from '../support/records.js';
import { startTestService, type TestService } from '../support/test-service.js';

const RUNS = Number(process.env.HOSTILE_RUNS ?? 60);
const uuid = (n: number): string => `${n.toString(16).padStart(8, '0')}-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

const world = fc.sample(
  fc.record({
    projects: fc.uniqueArray(fc.stringMatching(/^[a-z][a-z0-9-]{2,10}$/), { minLength: 2, maxLength: 4 }),
    ids: fc.uniqueArray(fc.integer({ min: 1, max: 40 }), { minLength: 3, maxLength: 10 }),
  }),
  { numRuns: 1, seed: 737373 },
)[0]!;

/** What each project holds: its record ids (the same id in two projects is two records). */
const owned = new Map<string, Set<string>>();
const lines: string[] = [];
world.projects.forEach((project, p) => {
  const ids = new Set<string>();
  world.ids.filter((_, i) => (i + p) % 3 !== 0).forEach((n) => {
    lines.push(plainCustomerLine(project, uuid(n), n % 2 === 0 ? 'Company' : 'Individual'));
    ids.add(uuid(n));
    lines.push(executionLine(project, uuid(n), p));
    ids.add(`exec-${String(p).padStart(4, '0')}`);
  });
  owned.set(project, ids);
});

let svc: TestService;
const keys = new Map<string, string>();
beforeAll(async () => {
  svc = await startTestService(lines);
  await feedSettled(svc.dbUrl);
  for (const p of world.projects) keys.set(p, (await svc.key(p, { scopes: ['changes:read'] })).key);
});
afterAll(async () => svc?.close());

describe('change feed isolation', () => {
  it('shows a key exactly its own project’s changes, whatever the page size', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...world.projects), fc.integer({ min: 1, max: 7 }), async (project, limit) => {
        const { items } = await catchUp(svc.url, `/v1/changes?limit=${limit}`, keys.get(project)!);
        expect(new Set(items.map((c) => c.id))).toEqual(owned.get(project));
        // Executions of the project name only its own customers.
        for (const c of items) if (c.kind === 'execution') expect(owned.get(project)!.has(c.customerId!)).toBe(true);
      }),
      { numRuns: Math.min(RUNS, 20) },
    );
  });

  it("refuses another project's cursor, and a tampered one, with 400 naming after", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...world.projects),
        fc.constantFrom(...world.projects),
        fc.integer({ min: 1, max: 5 }),
        fc.nat({ max: 60 }),
        async (issuer, presenter, limit, flip) => {
          const first = await feedPage(svc.url, `/v1/changes?limit=${limit}`, keys.get(issuer)!);
          const cursor = new URL(first.next!, svc.url).searchParams.get('after')!;
          const tampered = cursor.slice(0, flip % cursor.length) + (cursor[flip % cursor.length] === 'A' ? 'B' : 'A') + cursor.slice((flip % cursor.length) + 1);
          const own = await feedPage(svc.url, `/v1/changes?after=${encodeURIComponent(cursor)}`, keys.get(presenter)!);
          if (issuer === presenter) expect(own.status).toBe(200);
          else {
            expect(own.status).toBe(400);
            expect(JSON.stringify(own.body)).toContain('after:');
          }
          const bad = await feedPage(svc.url, `/v1/changes?after=${encodeURIComponent(tampered)}`, keys.get(issuer)!);
          expect(bad.status).toBe(400);
          expect((bad.body as { code: string }).code).toBe('invalid_request');
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('refuses a key without changes:read with 403', async () => {
    const project = world.projects[0]!;
    const { key } = await svc.key(project, { scopes: ['companies:read', 'executions:read', 'alerts:read'] });
    const page = await feedPage(svc.url, '/v1/changes', key);
    expect(page.status).toBe(403);
    expect((page.body as { code: string }).code).toBe('forbidden');
    expect(page.next).toBeNull();
  });
});
