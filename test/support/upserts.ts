/** Hand-made store records (upserts) for the store's own tests, shaped as the importer would. */
import { createHash, randomBytes } from 'node:crypto';
import type { AlertListing, AlertUpsert, CustomerUpsert, ExecutionUpsert } from '../../src/store/store.js';
import type { RecordBytes } from '../../src/wire/record-bytes.js';
import { layoutRecord } from '../../src/wire/record-layout.js';

/** A record's bytes as written: with its JSON. */
type StoredBody = RecordBytes & { body: Buffer };

/** A body with its etag and layout, as the importer would lay it out. */
export function stored(doc: object): StoredBody {
  const body = Buffer.from(JSON.stringify(doc));
  return { body, etag: createHash('sha256').update(body).digest('hex'), ...layoutRecord(body, { documents: null, gzipLevel: 6 }) };
}

/** A customer record; a company unless `isCompany` is false. */
export function customer(project: string, key: string, version: string | null, isCompany = true, note = ''): CustomerUpsert {
  return { kind: 'customer', project, key, versionKey: version, isCompany, ...stored({ key, version, isCompany, note }) };
}

/** An alert record, with a listing whose columns `listing` may set (its summary bytes are hand-made too). */
export function alert(project: string, key: string, version: string | null, note = '', listing: Partial<Omit<AlertListing, 'summary'>> = {}): AlertUpsert {
  const columns = {
    status: 'Open',
    severity: 'High',
    category: 'Onboarding',
    type: 'Fraud',
    customerKey: 'customer-1',
    assignedTo: null,
    seen: false,
    createdKey: version ?? '2024-01-01T00:00:00Z',
    updatedKey: version ?? '2024-01-01T00:00:00Z',
    ...listing,
  };
  return { kind: 'alert', project, key, versionKey: version, ...stored({ key, version, note }), listing: { ...columns, summary: stored({ key, summary: true, ...columns }) } };
}

/** An execution record of a customer. */
export function execution(
  project: string,
  customerKey: string,
  executionId: string,
  sortKey: string,
  more: { status?: string | null; scenarioIds?: string[]; objectTypes?: number; note?: string } = {},
): ExecutionUpsert {
  const { status = 'Passed', scenarioIds = [], objectTypes = 0, note = '' } = more;
  const rest = { customerKey, executionId, status, scenarioIds, objectTypes };
  return { kind: 'execution', project, key: executionId, versionKey: sortKey, ...rest, ...stored({ ...rest, sortKey, note }) };
}

/** Only the served fields of a stored body, for comparisons. */
export const body = (r: RecordBytes): RecordBytes => ({ body: r.body, etag: r.etag, layout: r.layout, deflated: r.deflated });

/** Midnight UTC of day `d` of January 2024, as an instant key. */
export const day = (d: number): string => `2024-01-0${d}T00:00:00Z`;

let projects = 0;
/** A project name no other test uses. */
export const newProject = (): string => `project-${++projects}-${randomBytes(3).toString('hex')}`;
