/** Hand-made store records (upserts) for the store's own tests, shaped as the importer would. */
import { createHash, randomBytes } from 'node:crypto';
import type { AlertUpsert, CustomerUpsert, ExecutionUpsert, StoredBody } from '../../src/store/store.js';
import { shapeBody } from '../../src/wire/wire-body.js';

/** A body with its etag and wire bytes, as the importer would shape it. */
export function stored(doc: object): StoredBody {
  const body = Buffer.from(JSON.stringify(doc));
  return { body, etag: createHash('sha256').update(body).digest('hex'), ...shapeBody(body, { documents: null, gzipLevel: 6 }) };
}

/** A customer record; a company unless `isCompany` is false. */
export function customer(project: string, key: string, version: string | null, isCompany = true, note = ''): CustomerUpsert {
  return { kind: 'customer', project, key, versionKey: version, isCompany, ...stored({ key, version, isCompany, note }) };
}

/** An alert record. */
export function alert(project: string, key: string, version: string | null, note = ''): AlertUpsert {
  return { kind: 'alert', project, key, versionKey: version, ...stored({ key, version, note }) };
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
export const body = (r: StoredBody): StoredBody => ({ body: r.body, etag: r.etag, wire: r.wire, gz: r.gz });

/** Midnight UTC of day `d` of January 2024, as an instant key. */
export const day = (d: number): string => `2024-01-0${d}T00:00:00Z`;

let projects = 0;
/** A project name no other test uses. */
export const newProject = (): string => `project-${++projects}-${randomBytes(3).toString('hex')}`;
