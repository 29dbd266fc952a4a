import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { instantKey, validateRecord } from '../contract/index.js';
import { demoDocuments, generateDemo, type DemoDocumentRef } from './index.js';

interface Envelope {
  kind: 'customer' | 'execution' | 'alert';
  customerId?: string;
  cmsProjectId?: string;
  record: Record<string, unknown>;
}

const SMALL = { companies: 6, individuals: 4, alerts: 10, heavyCustomerExecutions: 30 } as const;

function digest(lines: Iterable<string>): string {
  const hash = createHash('sha256');
  for (const line of lines) hash.update(line);
  return hash.digest('hex');
}

/** Every value in a JSON tree, with its key, depth first. */
function* walk(value: unknown, key = ''): Generator<[string, unknown, Record<string, unknown> | undefined]> {
  if (Array.isArray(value)) for (const v of value) yield* walk(v, key);
  else if (value !== null && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    for (const [k, v] of Object.entries(obj)) {
      yield [k, v, obj];
      yield* walk(v, k);
    }
  }
}

describe('generateDemo at default options', () => {
  let raw: string[];
  let envelopes: Envelope[];

  beforeAll(() => {
    raw = [...generateDemo()];
    envelopes = raw.map((line) => JSON.parse(line) as Envelope);
  });

  it('yields one JSON envelope per line, each ending in a newline', () => {
    for (const line of raw) {
      expect(line.endsWith('\n')).toBe(true);
      expect(line.indexOf('\n')).toBe(line.length - 1);
    }
    for (const env of envelopes) {
      const expectedKeys = env.kind === 'execution' ? ['kind', 'customerId', 'cmsProjectId', 'record'] : ['kind', 'record'];
      expect(Object.keys(env)).toEqual(expectedKeys);
    }
  });

  it('produces records that all pass the contract validation', () => {
    const failures: string[] = [];
    for (const env of envelopes) {
      const result = validateRecord(env.kind, env.record);
      if (!result.ok) failures.push(`${env.kind}: ${JSON.stringify(result.issues.slice(0, 3))}`);
    }
    expect(failures.slice(0, 5)).toEqual([]);
  });

  it('spans at least two projects, each with companies, individuals, executions and alerts', () => {
    const byProject = new Map<string, Set<string>>();
    for (const env of envelopes) {
      const project = env.kind === 'execution' ? env.cmsProjectId! : (env.record.cmsProjectId as string);
      const kinds = byProject.get(project) ?? new Set();
      kinds.add(env.kind === 'customer' ? `customer:${String(env.record.type)}` : env.kind);
      byProject.set(project, kinds);
    }
    expect([...byProject.keys()]).toEqual(['proj-acme-exchange', 'proj-northwind-bank']);
    for (const kinds of byProject.values()) expect([...kinds].sort()).toEqual(['alert', 'customer:Company', 'customer:Individual', 'execution']);
  });

  it('emits each customer before its executions and alerts, within the same project', () => {
    const projectOf = new Map<string, string>();
    for (const env of envelopes) {
      if (env.kind === 'customer') projectOf.set(env.record.id as string, env.record.cmsProjectId as string);
      if (env.kind === 'execution') expect(projectOf.get(env.customerId!)).toBe(env.cmsProjectId);
      if (env.kind === 'alert') expect(projectOf.get(env.record.customerId as string)).toBe(env.record.cmsProjectId);
    }
  });

  it('gives executions a long tail: a handful for most customers, at least one customer with thousands', () => {
    const counts = new Map<string, number>();
    for (const env of envelopes) if (env.kind === 'execution') counts.set(env.customerId!, (counts.get(env.customerId!) ?? 0) + 1);
    const sorted = [...counts.values()].sort((a, b) => a - b);
    expect(sorted.at(-1)).toBeGreaterThanOrEqual(1000);
    expect(sorted[Math.floor(sorted.length / 2)]).toBeLessThanOrEqual(10);
  });

  it('keeps createdAt at or before updatedAt in every object that has both', () => {
    let checked = 0;
    for (const env of envelopes) {
      for (const [key, value, parent] of walk(env.record)) {
        if (key !== 'createdAt' || !parent || typeof parent.updatedAt !== 'string') continue;
        expect(instantKey(value as string) <= instantKey(parent.updatedAt)).toBe(true);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(1000);
  });

  it('writes some timestamps with a non-UTC offset, which the service must keep verbatim', () => {
    const offsets = new Set<string>();
    for (const line of raw) for (const m of line.matchAll(/"\d{4}-\d{2}-\d{2}T[\d:.]+([+-]\d{2}:\d{2})"/g)) offsets.add(m[1]!);
    expect(offsets.size).toBeGreaterThanOrEqual(3);
  });

  it('adds a few fields outside the contract, which validation keeps and reports as warnings', () => {
    const warned = new Set<string>();
    let recordsWithWarnings = 0;
    for (const env of envelopes) {
      const result = validateRecord(env.kind, env.record);
      if (result.ok && result.warnings.length > 0) {
        recordsWithWarnings += 1;
        for (const w of result.warnings) warned.add(`${env.kind}${w.path}`);
      }
    }
    expect([...warned].sort()).toEqual(['alert/slaDueAt', 'customer/riskNotes']);
    expect(recordsWithWarnings).toBeLessThan(envelopes.length / 100);
  });
});

describe('generateDemo options', () => {
  it('gives byte-identical output for the same seed and options', () => {
    expect(digest(generateDemo({ ...SMALL, seed: 7 }))).toBe(digest(generateDemo({ ...SMALL, seed: 7 })));
  });

  it('gives different output for a different seed', () => {
    expect(digest(generateDemo({ ...SMALL, seed: 7 }))).not.toBe(digest(generateDemo({ ...SMALL, seed: 8 })));
  });

  it('keeps a customer identical when only other counts change', () => {
    const first = (alerts: number) => [...generateDemo({ ...SMALL, alerts })][0];
    expect(first(3)).toBe(first(50));
  });

  it('emits no unlisted fields when extraFields is off', () => {
    for (const line of generateDemo({ ...SMALL, companies: 60, alerts: 60, extraFields: false })) {
      const env = JSON.parse(line) as Envelope;
      const result = validateRecord(env.kind, env.record);
      expect(result).toMatchObject({ ok: true, warnings: [] });
    }
  });

  it('honours explicit project ids and per-project counts', () => {
    const kinds = new Map<string, number>();
    for (const line of generateDemo({ projects: ['proj-one', 'proj-two', 'proj-three'], companies: 2, individuals: 1, alerts: 2, executionsPerCustomer: 0, heavyCustomerExecutions: 0 })) {
      const env = JSON.parse(line) as Envelope;
      const key = `${env.kind}:${String(env.record.cmsProjectId)}`;
      kinds.set(key, (kinds.get(key) ?? 0) + 1);
    }
    expect(Object.fromEntries(kinds)).toEqual({
      'customer:proj-one': 3, 'alert:proj-one': 2,
      'customer:proj-two': 3, 'alert:proj-two': 2,
      'customer:proj-three': 3, 'alert:proj-three': 2,
    });
  });

  it('rejects nonsensical options before producing output', () => {
    expect(() => generateDemo({ companies: -1 }).next()).toThrow(RangeError);
    expect(() => generateDemo({ largeAlertRatio: 2 }).next()).toThrow(RangeError);
    expect(() => generateDemo({ companies: 0, individuals: 0, alerts: 1 }).next()).toThrow(RangeError);
  });

  it('reports every stored file through onDocument, matching the objectKeys in the output', () => {
    const reported: DemoDocumentRef[] = [];
    const keysInOutput = new Set<string>();
    for (const line of generateDemo({ ...SMALL, onDocument: (d) => reported.push(d) })) {
      for (const [key, value] of walk(JSON.parse(line))) if (key === 'objectKey') keysInOutput.add(value as string);
    }
    expect(new Set(reported.map((d) => d.objectKey))).toEqual(keysInOutput);
    expect(reported.length).toBe(keysInOutput.size);
    for (const d of reported) expect(d.filename.length).toBeGreaterThan(0);
    expect([...demoDocuments(SMALL)].flatMap((r) => r.documents)).toEqual(reported);
  });
});
