/**
 * The read operations: path, parameters, scope and response schema. The HTTP layer
 * validates requests from these definitions and the OpenAPI document is generated from them.
 */
import { Type, type TSchema } from '@sinclair/typebox';
import { Alert } from './alert.js';
import { Change } from './change.js';
import { CompanyDetails } from './company.js';
import { AlertCounts } from './alert-counts.js';
import { AlertSummary } from './alert-summary.js';
import { CompanySummary } from './company-summary.js';
import { AlertCategory, AlertSeverity, AlertStatus, AlertType, CountryAlpha3, CustomerStatus, ExecutionStatus, OnboardingLevel, RiskScore, RuleObjectType } from './enums.js';
import { Execution } from './execution.js';
import { ErasureResult } from './erasure.js';
import { ImportResult } from './import-result.js';
import { StringEnum } from './string-enum.js';

/** A query parameter: its schema (on the string value, after parsing) and whether it may repeat. */
export interface QueryParameter {
  schema: TSchema;
  description: string;
  repeatable?: boolean;
  /** How the raw string becomes the value the schema checks. */
  parse?: 'integer';
}

/**
 * One read operation of the service. Beyond its own schema, every path and query value must be
 * storable text (no NUL, no unpaired surrogate: storable-text.ts), for every operation alike.
 */
export interface Operation {
  operationId: string;
  summary: string;
  /** Path under the base path, OpenAPI style (`{id}`). */
  path: string;
  scope: 'companies:read' | 'executions:read' | 'alerts:read' | 'changes:read' | 'records:erase' | 'records:write';
  /** The request body a write operation reads (media types), absent when it reads none. */
  requestBody?: { mediaTypes: readonly string[]; description: string };
  pathParameters: Record<string, { schema: TSchema; description: string }>;
  query: Record<string, QueryParameter>;
  response: TSchema;
  /** Response headers beyond the common ones. */
  headers?: Record<string, { description: string }>;
}

/** Largest page of executions. */
export const MAX_PAGE_SIZE = 200;
/** Page size when `limit` is not given. */
export const DEFAULT_PAGE_SIZE = 50;

/** Largest page of the change feed, its default, and the longest wait of a long poll (seconds). */
export const MAX_CHANGES_PAGE = 1000;
export const DEFAULT_CHANGES_PAGE = 100;
export const MAX_CHANGES_WAIT = 30;

const Id = Type.String({ minLength: 1, maxLength: 256 });

// Calendar-true fields (months 01-12, days within their month, February 29 of leap years only, hours 00-23, minutes
// 00-59, second 60 for a leap second), so the documented format is the one the service applies.
const LEAP_YEAR = '(?:\\d\\d(?:0[48]|[2468][048]|[13579][26])|(?:[02468][048]|[13579][26])00)';
const DATE = `(?:\\d{4}-(?:(?:0[1-9]|1[0-2])-(?:0[1-9]|1\\d|2[0-8])|(?:0[13-9]|1[0-2])-(?:29|30)|(?:0[13578]|1[02])-31)|${LEAP_YEAR}-02-29)`;
const TIME = '[Tt](?:[01]\\d|2[0-3]):[0-5]\\d:(?:[0-5]\\d|60)(?:\\.\\d+)?(?:[Zz]|[+-](?:[01]\\d|2[0-3]):[0-5]\\d)';

/** A date-time (RFC 3339) or a plain date (midnight UTC), as accepted by `from` and `to`. */
export const InstantParameter = Type.String({
  pattern: `^${DATE}(?:${TIME})?$`,
  description: 'an ISO 8601 instant: RFC 3339 date-time, or a date meaning 00:00 UTC (February 29 only in a leap year)',
});

/** The alert list's parameters: its filters, then sort, order, page size and cursor. */
const ALERT_LIST_QUERY = {
  status: { schema: AlertStatus, repeatable: true, description: 'only alerts with this status (repeat for any of several)' },
  severity: { schema: AlertSeverity, repeatable: true, description: 'only alerts with this severity (repeat for any of several)' },
  category: { schema: AlertCategory, repeatable: true, description: 'only alerts of this category (repeat for any of several)' },
  type: { schema: AlertType, repeatable: true, description: 'only alerts of this type (repeat for any of several)' },
  customerId: { schema: Id, description: 'only alerts of this customer (uuids match in either case)' },
  assignedTo: { schema: Id, description: 'only alerts assigned to this value; `none` for alerts assigned to no one' },
  seen: { schema: StringEnum(['true', 'false'] as const), description: 'only alerts seen (true) or not seen (false)' },
  createdFrom: { schema: InstantParameter, description: 'only alerts whose createdAt is at or after this instant' },
  createdTo: { schema: InstantParameter, description: 'only alerts whose createdAt is before this instant' },
  updatedFrom: { schema: InstantParameter, description: 'only alerts whose updatedAt is at or after this instant' },
  updatedTo: { schema: InstantParameter, description: 'only alerts whose updatedAt is before this instant' },
  sort: { schema: StringEnum(['updatedAt', 'createdAt'] as const), description: 'the instant the list is ordered by, ties by alert id (default updatedAt)' },
  order: { schema: StringEnum(['desc', 'asc'] as const), description: 'sort direction (default desc: newest first)' },
  limit: {
    schema: Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE }),
    parse: 'integer',
    description: `page size, 1 to ${MAX_PAGE_SIZE} (default ${DEFAULT_PAGE_SIZE})`,
  },
  cursor: { schema: Type.String({ minLength: 1, maxLength: 4096 }), description: "opaque position from the previous page's Link header; only valid with the same filters, sort and order" },
} as const satisfies Record<string, QueryParameter>;

// The counts take the list's filters, except status (they count by it) and the paging ones.
const { status: _status, sort: _sort, order: _order, limit: _limit, cursor: _cursor, ...ALERT_COUNT_QUERY } = ALERT_LIST_QUERY;

export const OPERATIONS = {
  getCompanyDetails: {
    operationId: 'getCompanyDetails',
    summary: 'Get company details',
    path: '/companies/{id}/details',
    scope: 'companies:read',
    pathParameters: { id: { schema: Id, description: 'identifier of the company customer (uuids match in either case)' } },
    query: {},
    // Only customers of type Company are served here (docs/spec-decisions.md), so the answer's `type` is that one value.
    response: Type.Unsafe<CompanyDetails>({
      allOf: [CompanyDetails, { type: 'object', required: ['type'], properties: { type: { const: 'Company', description: 'always Company on this operation' } } }],
      description: CompanyDetails.description,
    }),
  },
  listCompanies: {
    operationId: 'listCompanies',
    summary: "List and search the project's companies",
    path: '/companies',
    scope: 'companies:read',
    pathParameters: {},
    query: {
      status: { schema: CustomerStatus, repeatable: true, description: 'only companies with this status (repeat for any of several)' },
      onboardingLevel: { schema: OnboardingLevel, repeatable: true, description: 'only companies at this onboarding level (repeat for any of several)' },
      riskScore: { schema: RiskScore, repeatable: true, description: 'only companies with this risk score (repeat for any of several)' },
      country: { schema: CountryAlpha3, repeatable: true, description: "only companies whose summary's country is this one (repeat for any of several)" },
      updatedFrom: { schema: InstantParameter, description: 'only companies whose updatedAt is at or after this instant' },
      updatedTo: { schema: InstantParameter, description: 'only companies whose updatedAt is before this instant' },
      q: {
        schema: Type.String({ minLength: 1, maxLength: 200 }),
        description:
          'search: every word must start a word of the company name, a registration number (also without its spaces and dashes), externalId or externalCustomerId; case and accents ignored. Results by relevance',
      },
      order: { schema: StringEnum(['desc', 'asc'] as const), description: 'by updatedAt, ties by id (default desc); not with q, whose results come by relevance' },
      limit: {
        schema: Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE }),
        parse: 'integer',
        description: `page size, 1 to ${MAX_PAGE_SIZE} (default ${DEFAULT_PAGE_SIZE})`,
      },
      cursor: { schema: Type.String({ minLength: 1, maxLength: 4096 }), description: "opaque position from the previous page's Link header; only valid with the same filters and q" },
    },
    response: Type.Array(CompanySummary),
    headers: { Link: { description: 'RFC 8288 link to the next page (rel="next"), with the same filters; absent on the last page' } },
  },
  getCustomerScenarioExecutions: {
    operationId: 'getCustomerScenarioExecutions',
    summary: "Get a customer's scenario executions",
    path: '/customers/{customerId}/scenario-executions',
    scope: 'executions:read',
    pathParameters: { customerId: { schema: Id, description: 'identifier of the customer' } },
    query: {
      status: { schema: ExecutionStatus, repeatable: true, description: 'only executions with this execution_status (repeat for any of several)' },
      scenarioId: { schema: Id, description: 'only executions that ran this scenario' },
      objectType: { schema: RuleObjectType, description: 'only executions with a rule of this object_type' },
      from: { schema: InstantParameter, description: 'only executions whose last_execution_date is at or after this instant' },
      to: { schema: InstantParameter, description: 'only executions whose last_execution_date is before this instant' },
      order: { schema: StringEnum(['desc', 'asc'] as const), description: 'by the instant of last_execution_date, ties by execution_id (default desc)' },
      limit: {
        schema: Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE }),
        parse: 'integer',
        description: `page size, 1 to ${MAX_PAGE_SIZE} (default ${DEFAULT_PAGE_SIZE})`,
      },
      cursor: { schema: Type.String({ minLength: 1, maxLength: 4096 }), description: 'opaque position from the previous page\'s Link header; only valid with the same filters' },
    },
    response: Type.Array(Execution),
    headers: { Link: { description: 'RFC 8288 link to the next page (rel="next"), with the same filters; absent on the last page' } },
  },
  getAlert: {
    operationId: 'getAlert',
    summary: 'Get an alert',
    path: '/alerts/{id}',
    scope: 'alerts:read',
    pathParameters: { id: { schema: Type.String({ format: 'uuid' }), description: 'alert identifier (uuid, either case)' } },
    query: {},
    response: Alert,
  },
  listAlerts: {
    operationId: 'listAlerts',
    summary: "List the project's alerts",
    path: '/alerts',
    scope: 'alerts:read',
    pathParameters: {},
    query: ALERT_LIST_QUERY,
    response: Type.Array(AlertSummary),
    headers: { Link: { description: 'RFC 8288 link to the next page (rel="next"), with the same filters; absent on the last page' } },
  },
  countAlerts: {
    operationId: 'countAlerts',
    summary: "Count the project's alerts by status",
    path: '/alerts/counts',
    scope: 'alerts:read',
    pathParameters: {},
    query: ALERT_COUNT_QUERY,
    response: AlertCounts,
  },
  listChanges: {
    operationId: 'listChanges',
    summary: "The project's change feed",
    path: '/changes',
    scope: 'changes:read',
    pathParameters: {},
    query: {
      after: { schema: Type.String({ minLength: 1, maxLength: 4096 }), description: "opaque position from the previous answer's Link header; absent: from the beginning" },
      limit: {
        schema: Type.Integer({ minimum: 1, maximum: MAX_CHANGES_PAGE }),
        parse: 'integer',
        description: `most changes in one answer, 1 to ${MAX_CHANGES_PAGE} (default ${DEFAULT_CHANGES_PAGE})`,
      },
      wait: {
        schema: Type.Integer({ minimum: 0, maximum: MAX_CHANGES_WAIT }),
        parse: 'integer',
        description: `seconds to hold an empty answer open until a change arrives, 0 to ${MAX_CHANGES_WAIT} (default 0)`,
      },
    },
    response: Type.Array(Change),
    headers: { Link: { description: 'RFC 8288 link (rel="next") to poll next, on every answer, an empty one included: the position after the last change, the same limit and wait' } },
  },
} as const satisfies Record<string, Operation>;

export type OperationName = keyof typeof OPERATIONS;

/** Media types of a pushed NDJSON body, the first the canonical one. */
export const NDJSON_MEDIA_TYPES = ['application/x-ndjson', 'application/jsonl'] as const;

/** The operations that change records (POST, never cached): the HTTP layer and the OpenAPI document take them from here. */
export const WRITE_OPERATIONS = {
  eraseCustomer: {
    operationId: 'eraseCustomer',
    summary: 'Erase a customer',
    path: '/customers/{customerId}/erase',
    scope: 'records:erase',
    pathParameters: { customerId: { schema: Id, description: 'identifier of the customer (uuids match in either case)' } },
    query: {
      dryRun: { schema: StringEnum(['true', 'false'] as const), description: 'true: only count what would be removed, change nothing (default false)' },
    },
    response: ErasureResult,
  },
  pushRecords: {
    operationId: 'pushRecords',
    summary: 'Push records (NDJSON envelopes)',
    path: '/records',
    scope: 'records:write',
    pathParameters: {},
    query: {},
    requestBody: {
      mediaTypes: NDJSON_MEDIA_TYPES,
      description:
        "NDJSON: one import envelope per line, as `compliance-read import` reads them (docs/ingest.md); `Content-Encoding: gzip` accepted. Every record must belong to the key's project. Larger than MAX_IMPORT_BYTES after decoding: 413 and nothing stored",
    },
    response: ImportResult,
  },
} as const satisfies Record<string, Operation>;

export type WriteOperationName = keyof typeof WRITE_OPERATIONS;
