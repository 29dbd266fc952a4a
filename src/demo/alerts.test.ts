import { beforeAll, describe, expect, it } from 'vitest';
import {
  ALERT_CATEGORIES,
  ALERT_SEVERITIES,
  ALERT_STATUSES,
  ALERT_TYPES,
  AUDIT_ACTIONS,
  CREDENTIAL_STATUS_TYPES,
  SCREENING_TYPES,
  isCurrencyCode,
  instantKey,
} from '../contract/index.js';
import { isLargeAlert } from './alerts.js';
import { generateDemo, type DemoOptions } from './index.js';

type Alert = Record<string, unknown> & {
  id: string;
  type: string;
  status: string;
  updatedAt: string;
  audits: { timestamp: string; action: string; author: string | null; record: Record<string, unknown> }[];
  notes: { documents: { objectKey: string }[] }[];
};

function alertsOf(options: DemoOptions): { alerts: Alert[]; sizes: number[]; customers: Map<string, string> } {
  const alerts: Alert[] = [];
  const sizes: number[] = [];
  const customers = new Map<string, string>();
  for (const line of generateDemo(options)) {
    const env = JSON.parse(line) as { kind: string; record: Record<string, unknown> };
    if (env.kind === 'customer') customers.set(env.record.id as string, env.record.cmsProjectId as string);
    if (env.kind !== 'alert') continue;
    alerts.push(env.record as Alert);
    sizes.push(Buffer.byteLength(line));
  }
  return { alerts, sizes, customers };
}

const OWN_FIELDS = ['id', 'severity', 'category', 'type', 'status', 'name', 'description', 'assignedTo', 'seen', 'customerId', 'cmsProjectId', 'createdAt', 'updatedAt', 'createdBy', 'updatedBy', 'reason', 'workflowSessionId', 'notes', 'slaDueAt'];

describe('demo alerts at default options', () => {
  let alerts: Alert[];
  let customers: Map<string, string>;

  beforeAll(() => {
    ({ alerts, customers } = alertsOf({ executionsPerCustomer: 0, heavyCustomerExecutions: 0 }));
  });

  it('cover every alert type, category, severity and status', () => {
    expect(new Set(alerts.map((a) => a.type))).toEqual(new Set(ALERT_TYPES));
    expect(new Set(alerts.map((a) => a.category))).toEqual(new Set(ALERT_CATEGORIES));
    expect(new Set(alerts.map((a) => a.severity))).toEqual(new Set(ALERT_SEVERITIES));
    expect(new Set(alerts.map((a) => a.status))).toEqual(new Set(ALERT_STATUSES));
  });

  it('pair every type with every status and severity', () => {
    const pairs = new Set(alerts.flatMap((a) => [`${a.type}|${a.status}`, `${a.type}|${String(a.severity)}`]));
    expect(pairs.size).toBe(ALERT_TYPES.length * (ALERT_STATUSES.length + ALERT_SEVERITIES.length));
  });

  it('refer to customers of their own project', () => {
    for (const a of alerts) expect(customers.get(a.customerId as string)).toBe(a.cmsProjectId);
  });

  it('have an audit trail that starts with create and whose last snapshot is the alert itself', () => {
    for (const a of alerts) {
      expect(a.audits[0]?.action).toBe('create');
      const own = Object.fromEntries(Object.entries(a).filter(([k]) => OWN_FIELDS.includes(k)));
      expect(a.audits.at(-1)?.record).toEqual(own);
      expect(a.audits.at(-1)?.timestamp).toBe(a.updatedAt);
      const times = a.audits.map((e) => instantKey(e.timestamp));
      expect([...times].sort()).toEqual(times);
    }
  });

  it('record duplicates, attachments and detachments in the audit trail', () => {
    const actions = new Set(alerts.flatMap((a) => a.audits.map((e) => e.action)));
    expect(actions).toEqual(new Set(AUDIT_ACTIONS));
    for (const a of alerts) {
      expect(a.audits.some((e) => e.action === 'duplicate')).toBe(a.type === 'Duplicate');
      const attached = a.audits.filter((e) => e.action === 'attach').length;
      const detached = a.audits.filter((e) => e.action === 'detach').length;
      const documents = a.notes.reduce((n, note) => n + note.documents.length, 0);
      expect(documents).toBe(attached - detached);
    }
  });

  it('date each note and note file by the audit entry that added it', () => {
    type SnapshotNote = { id: string; createdAt: string; documents: { objectKey: string; createdAt: string }[] };
    let checked = 0;
    for (const a of alerts) {
      const firstSeen = new Map<string, string>();
      for (const entry of a.audits) {
        for (const note of (entry.record.notes ?? []) as SnapshotNote[]) {
          if (!firstSeen.has(note.id)) firstSeen.set(note.id, entry.timestamp);
          for (const d of note.documents) if (!firstSeen.has(d.objectKey)) firstSeen.set(d.objectKey, entry.timestamp);
        }
      }
      for (const note of a.notes as unknown as SnapshotNote[]) {
        expect(note.createdAt).toBe(firstSeen.get(note.id));
        for (const d of note.documents) expect(d.createdAt).toBe(firstSeen.get(d.objectKey));
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(50);
  });

  it('carry the payload their type calls for', () => {
    for (const a of alerts) {
      expect(a.screeningProviderData !== null).toBe(a.type === 'AML Screening');
      expect(a.duplicateData !== null).toBe(a.type === 'Duplicate');
      expect(a.transactions !== null).toBe(a.type === 'Transaction Monitoring' || a.type === 'Onchain Monitoring');
    }
  });

  it('fill screening data with hits whose types and media are well formed', () => {
    const types = new Set<string>();
    for (const a of alerts.filter((x) => x.type === 'AML Screening')) {
      const spd = a.screeningProviderData as { alertId: string; customerId: string; searchResult: { hits: { doc: { types: string[]; media: { url: string }[]; match_types_details: unknown[] } }[]; total_hits: number } };
      expect(spd.alertId).toBe(a.id);
      expect(spd.customerId).toBe(a.customerId);
      expect(spd.searchResult.total_hits).toBe(spd.searchResult.hits.length);
      for (const hit of spd.searchResult.hits) {
        hit.doc.types.forEach((t) => types.add(t));
        expect(hit.doc.match_types_details.length).toBeGreaterThan(0);
        for (const m of hit.doc.media) expect(() => new URL(m.url)).not.toThrow();
      }
    }
    expect(types.size).toBeGreaterThan(SCREENING_TYPES.length / 2);
  });

  it('use the credential status types and currency codes of the contract', () => {
    const statusTypes = new Set<string>();
    const fieldNames = new Set<string>();
    for (const a of alerts) {
      for (const item of (a.results ?? []) as { data: Record<string, { credentialStatus?: { type: string } } | null> }[]) {
        for (const value of Object.values(item.data)) if (value && typeof value === 'object' && value.credentialStatus) statusTypes.add(value.credentialStatus.type);
      }
      for (const tx of (a.transactions ?? []) as { transactionInfo: { currencyCode: string; amount: string; direction: string; transactionAmounts: { fieldName: string }[] } }[]) {
        expect(isCurrencyCode(tx.transactionInfo.currencyCode)).toBe(true);
        expect(tx.transactionInfo.amount).toMatch(/^\d+\.\d+$/);
        expect(['IN', 'OUT']).toContain(tx.transactionInfo.direction);
        tx.transactionInfo.transactionAmounts.forEach((t) => fieldNames.add(t.fieldName));
      }
    }
    expect(statusTypes).toEqual(new Set(CREDENTIAL_STATUS_TYPES));
    expect(fieldNames).toEqual(new Set(['amount', 'networkFeeAmount', 'platformFeeAmount']));
  });
});

describe('demo alert sizes', () => {
  it('spaces large alerts evenly at the requested ratio', () => {
    const large = Array.from({ length: 1000 }, (_, g) => isLargeAlert(g, 0.01)).filter(Boolean).length;
    expect(large).toBe(10);
    expect(Array.from({ length: 1000 }, (_, g) => isLargeAlert(g, 0)).some(Boolean)).toBe(false);
  });

  it('have a median near 20 KB and about 1 % near 1 MB with hundreds of hits', () => {
    const { alerts, sizes } = alertsOf({ projects: 1, companies: 20, individuals: 10, alerts: 200, executionsPerCustomer: 0, heavyCustomerExecutions: 0 });
    const sorted = [...sizes].sort((a, b) => a - b);
    const median = sorted[sorted.length >> 1]!;
    expect(median).toBeGreaterThan(10_000);
    expect(median).toBeLessThan(40_000);
    const big = alerts.filter((_, i) => sizes[i]! > 700_000);
    expect(big.length).toBe(2);
    for (const a of big) {
      const hits = (a.screeningProviderData as { searchResult: { hits: unknown[] } }).searchResult.hits;
      expect(hits.length).toBeGreaterThanOrEqual(300);
    }
  });
});
