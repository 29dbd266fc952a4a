/** Turns a validated envelope into what the store writes: keys, filter columns and wire bytes. */
import { hash } from 'node:crypto';
import { instantKey } from '../contract/index.js';
import { recordKey } from '../contract/record-key.js';
import { objectTypeBit } from '../store/execution-page-sql.js';
import type { Alert } from '../contract/alert.js';
import { alertListingOf } from '../store/alert-listing.js';
import type { Upsert } from '../store/store.js';
import { companyListingOf } from '../store/company-listing.js';
import type { CompanyDetails } from '../contract/company.js';
import { ALERT_DOCUMENT_PATHS, COMPANY_DOCUMENT_PATHS } from '../contract/document-places.js';
import { documentPlaces, type DocumentPlace } from '../wire/json-splices.js';
import { layoutRecord } from '../wire/record-layout.js';
import { placesOf, type RecordKind } from '../wire/redaction.js';
import { FIELD_REVISIONS } from '../contract/field-classes.js';
import type { Envelope } from './envelope.js';

// Only documents where the contract puts them are signed at read time; extra members never are.
const COMPANY_DOCUMENTS = documentPlaces(COMPANY_DOCUMENT_PATHS);
const ALERT_DOCUMENTS = documentPlaces(ALERT_DOCUMENT_PATHS);

/** Content hash of a record's bytes: the strong ETag base and the unchanged-record test. */
export function contentHash(bytes: Buffer): string {
  // The one-shot hash skips the Hash object a createHash chain builds for every record.
  return hash('sha256', bytes, 'base64url').slice(0, 27);
}

/** The store write for one valid envelope. */
export function prepareRecord(env: Envelope, gzipLevel: number | null): Upsert {
  const r = env.record;
  const body = env.recordBytes;
  const etag = contentHash(body);
  const version = (v: unknown): string | null => (typeof v === 'string' ? instantKey(v) : null);
  // A customer or an alert: keyed by its id, versioned by its updatedAt.
  const byId = (documents: DocumentPlace, kind: RecordKind) => ({
    project: r.cmsProjectId as string,
    key: recordKey(r.id as string),
    id: r.id as string,
    versionKey: version(r.updatedAt),
    body,
    etag,
    ...layoutRecord(body, { documents, gzipLevel, fields: placesOf(kind), fieldsRevision: FIELD_REVISIONS[kind], parsed: r }),
  });
  switch (env.kind) {
    case 'customer': {
      const isCompany = r.type === 'Company';
      // The company list's row is shaped here too, in the import's worker, never at read time.
      const company = isCompany ? companyListingOf(r as unknown as CompanyDetails, gzipLevel) : null;
      return { kind: 'customer', isCompany, company, ...byId(COMPANY_DOCUMENTS, 'company') };
    }
    case 'alert':
      // Validated against the contract before it gets here, so it is an Alert.
      return {
        kind: 'alert',
        customerId: typeof r.customerId === 'string' ? r.customerId : null,
        ...byId(ALERT_DOCUMENTS, 'alert'),
        listing: alertListingOf(r as unknown as Alert, gzipLevel),
      };
    case 'execution': {
      const scenarios = (r.scenario_executions ?? []) as { scenarioId?: unknown; rules?: { object_type?: unknown }[] }[];
      let objectTypes = 0;
      const scenarioIds: string[] = [];
      for (const s of scenarios) {
        if (typeof s.scenarioId === 'string') scenarioIds.push(s.scenarioId);
        for (const rule of s.rules ?? []) {
          if (typeof rule.object_type === 'string') objectTypes |= objectTypeBit(rule.object_type);
        }
      }
      return {
        kind: 'execution',
        project: env.cmsProjectId!,
        key: r.execution_id as string,
        customerKey: recordKey(env.customerId!),
        customerId: env.customerId!,
        executionId: r.execution_id as string,
        versionKey: instantKey(r.last_execution_date as string),
        status: typeof r.execution_status === 'string' ? r.execution_status : null,
        scenarioIds,
        objectTypes,
        body,
        etag,
        ...layoutRecord(body, { documents: null, gzipLevel, fields: placesOf('execution'), fieldsRevision: FIELD_REVISIONS.execution, parsed: r }),
      };
    }
  }
}
