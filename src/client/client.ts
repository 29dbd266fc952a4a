/**
 * A small typed client of the read operations. Paths, parameter names and types come
 * from OPERATIONS and the contract's schemas, so the client changes when the contract does.
 */
import type { Static, TSchema } from '@sinclair/typebox';
import type { Alert, CompanyDetails, ErrorBody, Execution } from '../contract/index.js';
import type { AlertCounts } from '../contract/alert-counts.js';
import type { AlertSummary } from '../contract/alert-summary.js';
import type { CompanySummary } from '../contract/company-summary.js';
import type { Change } from '../contract/change.js';
import { NDJSON_MEDIA_TYPES, OPERATIONS, WRITE_OPERATIONS, type Operation, type QueryParameter } from '../contract/operations.js';
import type { ErasureResult } from '../contract/erasure.js';
import type { ImportResult } from '../contract/import-result.js';

/** The query of an operation: each parameter optional, a repeatable one also as an array. */
export type QueryOf<Q extends Record<string, QueryParameter>> = {
  [K in keyof Q]?: Q[K] extends { repeatable: true; schema: infer S extends TSchema }
    ? Static<S> | readonly Static<S>[]
    : Static<Q[K]['schema']>;
};

/** Filters, order, page size and cursor of getCustomerScenarioExecutions. */
export type ScenarioExecutionsQuery = QueryOf<typeof OPERATIONS.getCustomerScenarioExecutions.query>;

/** Filters, sort, order, page size and cursor of listAlerts. */
export type AlertsQuery = QueryOf<typeof OPERATIONS.listAlerts.query>;
/** Filters of countAlerts: the list's, without status, sort, order, limit and cursor. */
export type AlertCountsQuery = QueryOf<typeof OPERATIONS.countAlerts.query>;
/** Filters, search, order, page size and cursor of listCompanies. */
export type CompaniesQuery = QueryOf<typeof OPERATIONS.listCompanies.query>;

/** Position (`after`), page size and long poll (`wait`, seconds) of listChanges. */
export type ChangesQuery = QueryOf<typeof OPERATIONS.listChanges.query>;

/** The dry run switch of eraseCustomer. */
export type EraseQuery = QueryOf<typeof WRITE_OPERATIONS.eraseCustomer.query>;

/** How long followChanges holds each poll open when its query names no `wait`. */
export const FOLLOW_WAIT_SECONDS = 30;

/** One page of a list: its items and how to reach the next (the Link header's rel="next"). */
export interface Page<T> {
  items: T[];
  /** Absolute URL of the next page; undefined on the last page. */
  nextUrl: string | undefined;
  next: (() => Promise<Page<T>>) | undefined;
}

/** One page of executions; `next` fetches the page the Link header (rel="next") names. */
export type ExecutionsPage = Page<Execution>;

/** How to reach the service. */
export interface ClientOptions {
  /** The service URL including its base path, e.g. `https://compliance.example.com/v1`. */
  baseUrl: string;
  apiKey: string;
  /** A fetch implementation (default: the global one). */
  fetch?: typeof fetch;
}

/** An error answer of the service: its HTTP status and error body. */
export class ClientError extends Error {
  /** The error code of the body (`not_found`, `unauthorized`, ...), when it has one. */
  readonly code: string | undefined;

  constructor(
    readonly status: number,
    /** Partial: an intermediary (a proxy, a load balancer) may answer an error that is no ErrorBody. */
    readonly body: Partial<ErrorBody>,
    readonly requestId: string | undefined,
  ) {
    super(`${status} ${body.code ?? 'error'}: ${body.message ?? 'no message'}`);
    this.name = 'ClientError';
    this.code = body.code;
  }
}

/** The operations of the service, typed by the contract. */
export interface ComplianceClient {
  getCompanyDetails(id: string): Promise<CompanyDetails>;
  getCustomerScenarioExecutions(customerId: string, query?: ScenarioExecutionsQuery): Promise<ExecutionsPage>;
  /** Every execution matching `query`, page after page, following the Link header. */
  iterateScenarioExecutions(customerId: string, query?: ScenarioExecutionsQuery): AsyncGenerator<Execution, void, undefined>;
  getAlert(id: string): Promise<Alert>;
  /** One page of the project's alert summaries. */
  listAlerts(query?: AlertsQuery): Promise<Page<AlertSummary>>;
  /** Every alert summary matching `query`, page after page, following the Link header. */
  iterateAlerts(query?: AlertsQuery): AsyncGenerator<AlertSummary, void, undefined>;
  /** How many of the project's alerts match `query`, in all and by status (every status, zero included). */
  countAlerts(query?: AlertCountsQuery): Promise<AlertCounts>;
  /** One page of the project's company summaries matching `query` (search results by relevance). */
  listCompanies(query?: CompaniesQuery): Promise<Page<CompanySummary>>;
  /** Every company summary matching `query`, page after page, following the Link header. */
  iterateCompanies(query?: CompaniesQuery): AsyncGenerator<CompanySummary, void, undefined>;
  /** One page of the change feed; its `next` is always there (the position to poll next), an empty page's too. */
  listChanges(query?: ChangesQuery): Promise<Page<Change>>;
  /** Every change from `query.after` (or the beginning) up to now: stops at the first empty page (catch-up). */
  iterateChanges(query?: ChangesQuery): AsyncGenerator<Change, void, undefined>;
  /**
   * Every change from `query.after` on, for as long as `signal` lets it: polls with a long wait
   * (FOLLOW_WAIT_SECONDS unless the query names one), so it never ends by itself.
   */
  followChanges(query?: ChangesQuery, options?: { signal?: AbortSignal }): AsyncGenerator<Change, void, undefined>;
  /** Erases a customer of the key's project (a key with the records:erase scope); `{ dryRun: 'true' }` only counts. */
  eraseCustomer(customerId: string, query?: EraseQuery): Promise<ErasureResult>;
  /**
   * Pushes NDJSON envelopes into the key's project (a key with the records:write scope); `gzip: true`
   * says the body is already gzip encoded. Rejected lines come back in the result, not as an error.
   */
  pushRecords(ndjson: string | Uint8Array<ArrayBuffer>, options?: { gzip?: boolean }): Promise<ImportResult>;
}

/** Creates a client for the service at `baseUrl`, authenticating with `apiKey`. */
export function createClient(options: ClientOptions): ComplianceClient {
  const base = options.baseUrl.replace(/\/+$/, '');
  const doFetch = options.fetch ?? globalThis.fetch;

  const get = async (url: string, signal?: AbortSignal): Promise<Response> => {
    const response = await doFetch(url, {
      headers: { authorization: `Bearer ${options.apiKey}`, accept: 'application/json' },
      ...(signal === undefined ? {} : { signal }),
    });
    if (!response.ok) throw await clientError(response);
    return response;
  };

  /** The page at `url`: a JSON array, and the next page's URL from its Link header. */
  const pageAt = async <T>(url: string, signal?: AbortSignal): Promise<Page<T>> => {
    const response = await get(url, signal);
    const items = (await response.json()) as T[];
    const link = nextLink(response.headers.get('link'));
    // The Link URL is path-absolute (it carries the base path), so it resolves against the origin.
    const nextUrl = link === undefined ? undefined : new URL(link, `${base}/`).href;
    return { items, nextUrl, next: nextUrl === undefined ? undefined : () => pageAt<T>(nextUrl, signal) };
  };

  const changes = (query: ChangesQuery, signal?: AbortSignal): Promise<Page<Change>> => {
    const op = OPERATIONS.listChanges;
    return pageAt<Change>(base + pathOf(op, {}) + searchOf(op, query), signal);
  };

  const executions = (customerId: string, query: ScenarioExecutionsQuery): Promise<ExecutionsPage> => {
    const op = OPERATIONS.getCustomerScenarioExecutions;
    return pageAt<Execution>(base + pathOf(op, { customerId }) + searchOf(op, query));
  };

  const alerts = (query: AlertsQuery): Promise<Page<AlertSummary>> =>
    pageAt<AlertSummary>(base + OPERATIONS.listAlerts.path + searchOf(OPERATIONS.listAlerts, query));
  const companies = (query: CompaniesQuery): Promise<Page<CompanySummary>> => {
    const op = OPERATIONS.listCompanies;
    return pageAt<CompanySummary>(base + pathOf(op, {}) + searchOf(op, query));
  };

  return {
    listCompanies: (query = {}) => companies(query),
    iterateCompanies: (query = {}) => itemsOf(companies(query)),
    async getCompanyDetails(id) {
      const response = await get(base + pathOf(OPERATIONS.getCompanyDetails, { id }));
      return (await response.json()) as CompanyDetails;
    },
    getCustomerScenarioExecutions: (customerId, query = {}) => executions(customerId, query),
    iterateScenarioExecutions: (customerId, query = {}) => itemsOf(executions(customerId, query)),
    async getAlert(id) {
      const response = await get(base + pathOf(OPERATIONS.getAlert, { id }));
      return (await response.json()) as Alert;
    },
    listAlerts: (query = {}) => alerts(query),
    iterateAlerts: (query = {}) => itemsOf(alerts(query)),
    async countAlerts(query = {}) {
      const op = OPERATIONS.countAlerts;
      const response = await get(base + pathOf(op, {}) + searchOf(op, query));
      return (await response.json()) as AlertCounts;
    },
    listChanges: (query = {}) => changes(query),
    async eraseCustomer(customerId, query = {}) {
      const op = WRITE_OPERATIONS.eraseCustomer;
      const response = await doFetch(base + pathOf(op, { customerId }) + searchOf(op, query), {
        method: 'POST',
        headers: { authorization: `Bearer ${options.apiKey}`, accept: 'application/json' },
      });
      if (!response.ok) throw await clientError(response);
      return (await response.json()) as ErasureResult;
    },
    async pushRecords(ndjson, pushOptions = {}) {
      const op = WRITE_OPERATIONS.pushRecords;
      const response = await doFetch(base + pathOf(op, {}), {
        method: 'POST',
        headers: {
          authorization: `Bearer ${options.apiKey}`,
          accept: 'application/json',
          'content-type': NDJSON_MEDIA_TYPES[0],
          ...(pushOptions.gzip === true ? { 'content-encoding': 'gzip' } : {}),
        },
        body: ndjson,
      });
      if (!response.ok) throw await clientError(response);
      return (await response.json()) as ImportResult;
    },
    async *iterateChanges(query = {}) {
      let page = await changes(query);
      while (page.items.length > 0) {
        yield* page.items;
        if (page.next === undefined) return;
        page = await page.next();
      }
    },
    async *followChanges(query = {}, { signal } = {}) {
      try {
        let page = await changes({ ...query, wait: query.wait ?? FOLLOW_WAIT_SECONDS }, signal);
        for (;;) {
          yield* page.items;
          if (signal?.aborted === true || page.next === undefined) return;
          page = await page.next();
        }
      } catch (err) {
        // Stopping is the caller's abort, not a failure.
        if (signal?.aborted === true) return;
        throw err;
      }
    },
  };
}

/** Every item of a list, page after page, following the Link header to the last page. */
export async function* itemsOf<T>(first: Promise<Page<T>>): AsyncGenerator<T, void, undefined> {
  let page: Page<T> | undefined = await first;
  while (page !== undefined) {
    yield* page.items;
    page = page.next === undefined ? undefined : await page.next();
  }
}

/** The operation's path with each `{name}` replaced by its encoded value. */
function pathOf(op: Operation, values: Record<string, string>): string {
  return op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new TypeError(`missing path parameter ${name}`);
    return encodeURIComponent(value);
  });
}

/** The query string of the operation's parameters that are set; repeatable ones repeat. */
function searchOf(op: Operation, query: Record<string, unknown>): string {
  const search = new URLSearchParams();
  // Only the operation's own parameters, in its order: a typo in an untyped caller is dropped
  // here rather than refused by the service with 400.
  for (const name of Object.keys(op.query)) {
    const value = query[name];
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) search.append(name, String(v));
  }
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}

/** The target of the rel="next" link of a Link header (RFC 8288), if any. */
export function nextLink(header: string | null): string | undefined {
  if (header === null) return undefined;
  for (const match of header.matchAll(/<([^>]*)>((?:\s*;\s*[^;,]+)*)/g)) {
    const params = match[2] ?? '';
    const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,]+))/i.exec(params);
    const rels = (rel?.[1] ?? rel?.[2] ?? '').toLowerCase().split(/\s+/);
    if (rels.includes('next')) return match[1];
  }
  return undefined;
}

/** The ClientError of an error answer; a body that is not an ErrorBody becomes its message. */
async function clientError(response: Response): Promise<ClientError> {
  const text = await response.text();
  let body: Partial<ErrorBody>;
  try {
    const parsed: unknown = JSON.parse(text);
    body = parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Partial<ErrorBody>) : { message: text };
  } catch {
    body = { message: text.slice(0, 500) || response.statusText };
  }
  return new ClientError(response.status, body, response.headers.get('x-request-id') ?? undefined);
}
