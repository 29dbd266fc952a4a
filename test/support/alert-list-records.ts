/** Alerts for the alert list's tests: varied fields from a number, as records, NDJSON lines and the facts the list filters on. */
import { ALERT_CATEGORIES, ALERT_SEVERITIES, ALERT_STATUSES, ALERT_TYPES } from '../../src/contract/enums.js';

/** One alert of the list's tests, with the instants its fields were written for. */
export interface ListedAlert {
  record: Record<string, unknown> & {
    id: string;
    status: string;
    severity: string;
    category: string;
    type: string;
    customerId: string;
    assignedTo: string | null;
    seen: boolean;
    cmsProjectId: string;
  };
  createdMs: number;
  updatedMs: number;
}

/** Customers the alerts cycle through; the second is written in upper case on every other alert. */
export const LIST_CUSTOMERS = ['0a1b2c3d-0000-4000-8000-000000000001', '0a1b2c3d-0000-4000-8000-0000000000ab', '0a1b2c3d-0000-4000-8000-000000000003'];
export const ASSIGNEES = [null, 'analyst-a', 'analyst-b'] as const;
const BASE = Date.UTC(2024, 4, 1);

/** An instant written with an offset of `hours` (same instant, other spelling). */
function spelled(ms: number, hours: number): string {
  if (hours === 0) return new Date(ms).toISOString().replace('.000Z', 'Z');
  const local = new Date(ms + hours * 3_600_000).toISOString().slice(0, 19);
  return `${local}${hours > 0 ? '+' : '-'}${String(Math.abs(hours)).padStart(2, '0')}:00`;
}

/** Alert number `i` of a project (`tag`, 0 to 255, keeps ids of projects apart); `version` moves updatedAt on and changes its name. */
export function listedAlert(project: string, tag: number, i: number, version = 0): ListedAlert {
  const id = `${tag.toString(16).padStart(2, '0')}0000${i.toString(16).padStart(2, '0')}-1111-4222-8333-${(i * 7919).toString(16).padStart(12, '0')}`;
  const createdMs = BASE + Math.floor(i / 3) * 60_000; // threes share createdAt: ties are broken by id
  const updatedMs = createdMs + ((i * 37) % 50) * 60_000 + version * 86_400_000;
  const customer = LIST_CUSTOMERS[i % 3]!;
  const record = {
    id,
    severity: ALERT_SEVERITIES[i % 3]!,
    category: ALERT_CATEGORIES[Math.floor(i / 2) % 2]!,
    type: ALERT_TYPES[i % ALERT_TYPES.length]!,
    status: ALERT_STATUSES[i % 5]!,
    name: `Alert ${i}${version > 0 ? ` v${version}` : ''}`,
    description: i % 4 === 0 ? null : `about alert ${i}`,
    assignedTo: ASSIGNEES[Math.floor(i / 2) % 3]!,
    seen: i % 7 < 3,
    customerId: i % 3 === 1 && i % 2 === 0 ? customer.toUpperCase() : customer,
    cmsProjectId: project,
    createdAt: spelled(createdMs, i % 4 === 0 ? 2 : 0),
    updatedAt: spelled(updatedMs, i % 5 === 0 ? -3 : 0),
    createdBy: 'system',
    updatedBy: 'analyst',
    reason: null,
    ...(i % 6 === 0 ? { workflowSessionId: `wf-${i}` } : {}),
    notes: [],
    audits: Array.from({ length: i % 3 }, (_, k) => ({ timestamp: spelled(createdMs + k, 0), action: 'update', author: null, record: { status: 'Open' } })),
    transactions: i % 2 === 0 ? [] : null,
  };
  return { record, createdMs, updatedMs };
}

/** The NDJSON line of an alert. */
export function listedAlertLine(a: ListedAlert): string {
  return JSON.stringify({ kind: 'alert', record: a.record });
}
