import { describe, expect, it } from 'vitest';
import { generateDemo } from '../demo/index.js';
import { fieldPlaces, findRanges, holdsClassified } from './json-ranges.js';
import { placesOf } from './redaction.js';
import { seeded } from '../../test/support/ingest-records.js';

const KIND = { customer: 'company', alert: 'alert', execution: 'execution' } as const;

/** A copy of `value` with some values replaced by null, [] or {} (the shapes a scan must tell apart). */
function mutated(value: unknown, rand: () => number): unknown {
  if (value === null || typeof value !== 'object') return value;
  const roll = rand();
  if (roll < 0.04) return null;
  if (roll < 0.06) return Array.isArray(value) ? [] : {};
  if (Array.isArray(value)) return value.map((v) => mutated(v, rand));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mutated(v, rand)]));
}

describe('holdsClassified', () => {
  it('agrees with the byte scan on every demo record and on variants with values nulled or emptied', () => {
    const rand = seeded(7);
    let checked = 0;
    let holding = 0;
    for (const line of generateDemo({ companies: 6, individuals: 2, alerts: 12, heavyCustomerExecutions: 40 })) {
      const env = JSON.parse(line) as { kind: keyof typeof KIND; record: unknown };
      const places = placesOf(KIND[env.kind]);
      for (const record of [env.record, mutated(env.record, rand), mutated(env.record, rand)]) {
        const body = Buffer.from(JSON.stringify(record));
        const found = findRanges(body, places).length > 0;
        expect(holdsClassified(JSON.parse(body.toString()), places)).toBe(found);
        checked++;
        if (found) holding++;
      }
    }
    // Both answers occur, so the agreement is not one constant.
    expect(holding).toBeGreaterThan(0);
    expect(checked - holding).toBeGreaterThan(0);
  });

  it('counts a marked object or array however empty, and a null only when its mask is not null', () => {
    const places = fieldPlaces([
      { path: 'docs[].url', class: 'documents', mask: 'text' },
      { path: 'screening', class: 'screening', mask: 'null' },
      { path: 'extra.*', class: 'pii', mask: 'text' },
    ]);
    const holds = (v: unknown) => holdsClassified(v, places);
    const scans = (v: unknown) => findRanges(Buffer.from(JSON.stringify(v)), places).length > 0;
    for (const v of [
      { docs: null },
      { docs: [] },
      { docs: [{}] },
      { docs: [{ url: null }] },
      { docs: [{ url: 'x' }] },
      { docs: { url: 'x' } },
      { screening: null },
      { screening: {} },
      { screening: 0 },
      { extra: {} },
      { extra: { a: null } },
      { extra: [1] },
    ]) {
      expect(holds(v), JSON.stringify(v)).toBe(scans(v));
    }
  });
});
