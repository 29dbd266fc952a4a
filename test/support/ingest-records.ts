/**
 * Envelopes for ingest tests: companies, alerts and executions each in several versions (their
 * instants one hour apart), shuffled so versions arrive out of order, and a check that the store
 * holds each record once at its newest version.
 */
import { recordKey } from '../../src/contract/record-key.js';
import type { Store } from '../../src/store/store.js';
import { alertLine, companyLine, executionLine } from './records.js';

/** The envelopes, and the newest instant of each record, by kind and id. */
export interface VersionedEnvelopes {
  lines: string[];
  companies: Map<string, string>;
  alerts: Map<string, string>;
  /** customer id → execution id → newest last_execution_date. */
  executions: Map<string, Map<string, string>>;
}

const uuid = (tag: number, n: number): string => `${String(tag).padStart(8, '0')}-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
const hourAfter = (base: number, v: number): string => new Date(base + v * 3_600_000).toISOString().replace('.000Z', 'Z');
const COMPANY_BASE = Date.UTC(2024, 1, 1);
const EXECUTION_BASE = Date.UTC(2024, 2, 1);

/** A small seeded generator (mulberry32), so a failing run can be replayed. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * About `total` envelopes of `project`: a tenth companies, a tenth alerts and the rest executions
 * (ten per company), each record in `versions` versions; shuffled with `seed`.
 */
export function versionedEnvelopes(project: string, total: number, seed = 1, versions = 3): VersionedEnvelopes {
  const perCompany = Math.ceil(versions * 12);
  const companiesCount = Math.max(1, Math.round(total / perCompany));
  const out: VersionedEnvelopes = { lines: [], companies: new Map(), alerts: new Map(), executions: new Map() };
  for (let c = 0; c < companiesCount; c++) {
    const id = uuid(1, c);
    const company = JSON.parse(companyLine(project, id, uuid(3, c))) as { record: Record<string, unknown> };
    const alertId = uuid(2, c);
    const alert = JSON.parse(alertLine(project, alertId, id, uuid(4, c))) as { record: Record<string, unknown> };
    const runs = new Map<string, string>();
    for (let v = 0; v < versions; v++) {
      company.record.updatedAt = hourAfter(COMPANY_BASE, v);
      out.lines.push(JSON.stringify(company));
      alert.record.updatedAt = hourAfter(COMPANY_BASE, v);
      out.lines.push(JSON.stringify(alert));
      for (let e = 0; e < 10; e++) {
        const exec = JSON.parse(executionLine(project, id, e)) as { record: Record<string, unknown> & { scenario_executions: { executed_at: string }[] } };
        const at = hourAfter(EXECUTION_BASE + e * 60_000, v);
        exec.record.last_execution_date = at;
        exec.record.scenario_executions[0]!.executed_at = at;
        out.lines.push(JSON.stringify(exec));
        runs.set(exec.record.execution_id as string, at);
      }
    }
    out.companies.set(id, hourAfter(COMPANY_BASE, versions - 1));
    out.alerts.set(alertId, hourAfter(COMPANY_BASE, versions - 1));
    out.executions.set(id, runs);
  }
  const random = seeded(seed);
  for (let i = out.lines.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out.lines[i], out.lines[j]] = [out.lines[j]!, out.lines[i]!];
  }
  return out;
}

/**
 * Problems with the store's copy of `expected` in `project`: a record missing, at another version
 * than its newest, or an execution stored twice or unexpected. Empty when all is well.
 */
export async function versionProblems(store: Store, project: string, expected: VersionedEnvelopes): Promise<string[]> {
  const problems: string[] = [];
  const instantOf = (body: Buffer | null, field: string): unknown => (body === null ? undefined : (JSON.parse(body.toString('utf8')) as Record<string, unknown>)[field]);
  for (const [id, newest] of expected.companies) {
    const got = instantOf((await store.getCompany(project, recordKey(id)))?.body ?? null, 'updatedAt');
    if (got !== newest) problems.push(`company ${id}: ${String(got)} instead of ${newest}`);
  }
  for (const [id, newest] of expected.alerts) {
    const got = instantOf((await store.getAlert(project, recordKey(id)))?.body ?? null, 'updatedAt');
    if (got !== newest) problems.push(`alert ${id}: ${String(got)} instead of ${newest}`);
  }
  for (const [customer, runs] of expected.executions) {
    const page = await store.listExecutions(project, recordKey(customer), { order: 'asc' }, undefined, 200);
    const seen = new Map<string, number>();
    for (const row of page) {
      seen.set(row.executionId, (seen.get(row.executionId) ?? 0) + 1);
      const at = instantOf(row.body, 'last_execution_date');
      if (runs.get(row.executionId) !== at) problems.push(`execution ${customer}/${row.executionId}: ${String(at)} instead of ${runs.get(row.executionId)}`);
    }
    for (const [id, n] of seen) if (n !== 1) problems.push(`execution ${customer}/${id} stored ${n} times`);
    for (const id of runs.keys()) if (!seen.has(id)) problems.push(`execution ${customer}/${id} missing`);
  }
  return problems;
}
