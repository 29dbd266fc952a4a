/** The service's typed client for the signed-in key, the query hooks of the screens, and what their errors mean. */
import { QueryClient, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { ClientError, createClient, type AlertCountsQuery, type AlertsQuery, type CompaniesQuery, type ComplianceClient, type Page, type ScenarioExecutionsQuery } from '../../src/client/client.js';
import type { AlertCounts } from '../../src/contract/alert-counts.js';
import type { CompanySummary } from '../../src/contract/company-summary.js';
import type { Alert, CompanyDetails, Execution } from '../../src/contract/index.js';
import type { AlertSummary } from '../../src/contract/alert-summary.js';
import { FIELD_CLASSES, type FieldClass } from '../../src/contract/field-classes.js';
import { currentKey, signOut } from './auth.js';

/** The API's base path on the origin serving the console, as the service writes it into index.html. */
const API_BASE = `${window.location.origin}${document.querySelector<HTMLMetaElement>('meta[name="compliance-api-base"]')?.content ?? '/v1'}`;

/** True for a URL of the service's own document files (`<base>/files/…` on this origin): the only ones previewed. */
export function isServiceFile(url: string): boolean {
  try {
    return new URL(url, window.location.href).href.startsWith(`${API_BASE}/files/`);
  } catch {
    return false;
  }
}

/** A 429 answer: how long the service asks us to wait before asking again. */
export class RateLimited extends Error {
  constructor(readonly waitMs: number) {
    super(`rate limited; retry in ${waitMs} ms`);
  }
}

/** fetch, with a 429 turned into RateLimited carrying its Retry-After (seconds, capped at 30). */
const fetchNotingRetryAfter: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  if (response.status !== 429) return response;
  const seconds = Number(response.headers.get('retry-after') ?? '1');
  throw new RateLimited(Math.min(Number.isFinite(seconds) && seconds >= 0 ? seconds : 1, 30) * 1000);
};

function client(fetchFn: typeof fetch = fetchNotingRetryAfter): ComplianceClient {
  return createClient({ baseUrl: API_BASE, apiKey: currentKey() ?? '', fetch: fetchFn });
}

/**
 * A record as this key is shown it: which field classes its answer withholds, and until when its
 * signed document URLs hold (unix ms), both read from the answer's ETag
 * (`"<etag>.r<bits>…"`, docs/data-protection.md; `".<expiry>"`, docs/api.md).
 */
export interface Read<T> {
  record: T;
  withheld: ReadonlySet<FieldClass>;
  urlsExpireAt: number | undefined;
}

/** The withheld classes and URL expiry an ETag names; none and undefined when it names neither. */
export function readOfEtag(etag: string | null): Omit<Read<never>, 'record'> {
  const tag = (etag ?? '').replace(/^W\//, '').replace(/"/g, '').replace(/-gz$/, '');
  const bits = Number(/\.r(\d+)(?:v\d+)?(?=\.|$)/.exec(tag)?.[1] ?? 0);
  const expiry = /\.(\d{9,})$/.exec(tag)?.[1];
  const withheld = new Set((Object.keys(FIELD_CLASSES) as FieldClass[]).filter((c) => (bits & FIELD_CLASSES[c].bit) !== 0));
  return { withheld, urlsExpireAt: expiry === undefined ? undefined : Number(expiry) * 1000 };
}

/** Reads one record with a client of its own, so the answer's ETag is this record's. */
async function readRecord<T>(read: (c: ComplianceClient) => Promise<T>): Promise<Read<T>> {
  let etag: string | null = null;
  const record = await read(
    client(async (input, init) => {
      const response = await fetchNotingRetryAfter(input, init);
      etag = response.headers.get('etag');
      return response;
    }),
  );
  return { record, ...readOfEtag(etag) };
}

/** How long before its signed URLs expire a record is read again: a link clicked then still opens. */
const URL_MARGIN_MS = 60_000;

/** Until the record's signed URLs near their expiry: the query's staleTime and refetchInterval. */
function untilUrlsExpire(read: Read<unknown> | undefined): number | false {
  if (read?.urlsExpireAt === undefined) return false;
  return Math.max(read.urlsExpireAt - URL_MARGIN_MS - Date.now(), 5_000);
}

function retryAfterMs(error: unknown): number | undefined {
  return error instanceof RateLimited ? error.waitMs : undefined;
}

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      // Only a rate limit is worth retrying: other refusals (401, 403, 404, 400) answer the same again.
      retry: (failures, error) => retryAfterMs(error) !== undefined && failures < 5,
      retryDelay: (_failures, error) => retryAfterMs(error) ?? 1000,
    },
  },
});

// A refused key ends the session: the sign-in screen says why.
queryClient.getQueryCache().subscribe((event) => {
  const error = event.query.state.error;
  if (event.type === 'updated' && error instanceof ClientError && error.status === 401) {
    signOut(`The service refused this key (${error.body.message ?? 'unauthorized'}). Sign in again.`);
    queryClient.clear();
  }
});

/** True for a read that never reached the service (offline, refused connection): asking again may work. */
export function isNetworkError(error: unknown): boolean {
  return !(error instanceof ClientError) && !(error instanceof RateLimited);
}

/** What an analyst is told about a failed read. */
export function describeError(error: unknown): string {
  if (error instanceof RateLimited) return 'The service is rate limiting this key; retrying shortly.';
  if (!(error instanceof ClientError)) return `The service could not be reached (${error instanceof Error ? error.message : String(error)}).`;
  switch (error.status) {
    case 403: {
      const scope = /lacks the (\S+) scope/.exec(error.body.message ?? '')?.[1];
      return scope === undefined ? `This key may not read this (${error.body.message ?? 'forbidden'}).` : `This key lacks the ${scope} scope.`;
    }
    case 404:
      return 'Not in this project: no record with this id is visible to this key.';
    default:
      return `${error.status} ${error.code ?? 'error'}: ${error.body.message ?? 'no message'}`;
  }
}

/** The alert list's filters as the URL holds them. */
export type AlertFilters = Pick<AlertsQuery, 'status' | 'severity' | 'category' | 'type' | 'assignedTo' | 'seen' | 'sort' | 'order'>;

const PAGE_SIZE = 50;

/** Alert summaries page after page, each next page from the previous one's Link header. */
export function useAlertPages(filters: AlertFilters) {
  return useInfiniteQuery({
    queryKey: ['alerts', filters],
    queryFn: ({ pageParam }): Promise<Page<AlertSummary>> => client().listAlerts({ ...filters, limit: PAGE_SIZE, cursor: pageParam }),
    initialPageParam: undefined as string | undefined,
    // The cursor of the Link URL: the filters it repeats are the ones this query already holds.
    getNextPageParam: (last) => (last.nextUrl === undefined ? undefined : (new URL(last.nextUrl).searchParams.get('cursor') ?? undefined)),
  });
}

/** How many alerts each status holds under the inbox's other filters. */
export function useAlertCounts(filters: AlertCountsQuery) {
  return useQuery({ queryKey: ['alert-counts', filters], queryFn: (): Promise<AlertCounts> => client().countAlerts(filters) });
}

/** A customer's execution filters as the URL holds them. */
export type ExecutionFilters = Pick<ScenarioExecutionsQuery, 'status' | 'scenarioId' | 'objectType' | 'from' | 'to' | 'order'>;

/** A customer's executions page after page, each next page from the previous one's Link header. */
export function useExecutionPages(customerId: string, filters: ExecutionFilters) {
  return useInfiniteQuery({
    queryKey: ['executions', customerId, filters],
    queryFn: ({ pageParam }): Promise<Page<Execution>> => client().getCustomerScenarioExecutions(customerId, { ...filters, limit: PAGE_SIZE, cursor: pageParam }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.nextUrl === undefined ? undefined : (new URL(last.nextUrl).searchParams.get('cursor') ?? undefined)),
  });
}

/**
 * A record with signed document URLs is read again before they expire (docs/api.md: valid for
 * SIGNED_URL_TTL seconds), and on coming back to the tab once they near it (timers sleep in a hidden tab).
 */
const REFRESH_SIGNED_URLS = {
  staleTime: (query: { state: { data?: Read<unknown> } }) => untilUrlsExpire(query.state.data) || 30_000,
  refetchInterval: (query: { state: { data?: Read<unknown> } }) => untilUrlsExpire(query.state.data),
  refetchOnWindowFocus: true,
} as const;

export function useAlert(id: string) {
  return useQuery({ queryKey: ['alert', id], queryFn: (): Promise<Read<Alert>> => readRecord((c) => c.getAlert(id)), ...REFRESH_SIGNED_URLS });
}

export function useCompany(id: string) {
  return useQuery({ queryKey: ['company', id], queryFn: (): Promise<Read<CompanyDetails>> => readRecord((c) => c.getCompanyDetails(id)), ...REFRESH_SIGNED_URLS });
}

/**
 * The company an alert's customer is, by its name (from its claims, else its id); null when the
 * API has no company file for it (404: an individual customer). Other refusals leave it unknown.
 */
export function useCustomerCompany(customerId: string) {
  return useQuery({
    queryKey: ['customer-company', customerId],
    queryFn: async (): Promise<{ name: string } | null> => {
      try {
        const company = await client().getCompanyDetails(customerId);
        return { name: company.companyClaims?.find((c) => c.companyName)?.companyName ?? customerId };
      } catch (error) {
        if (error instanceof ClientError && error.status === 404) return null;
        throw error;
      }
    },
  });
}

/** The company list's search and filters as the URL holds them. */
export type CompanyFilters = Pick<CompaniesQuery, 'q' | 'status' | 'onboardingLevel' | 'riskScore' | 'country'>;

/** Company summaries for a search (by relevance) or, without one, newest update first; more pages by the Link cursor. */
export function useCompanyPages(filters: CompanyFilters) {
  return useInfiniteQuery({
    queryKey: ['companies', filters],
    queryFn: ({ pageParam }): Promise<Page<CompanySummary>> => client().listCompanies({ ...filters, limit: PAGE_SIZE, cursor: pageParam }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.nextUrl === undefined ? undefined : (new URL(last.nextUrl).searchParams.get('cursor') ?? undefined)),
  });
}

/** The project the key reads, as its alerts name it (the API has no "who am I" operation). */
export function useProject() {
  return useQuery({
    queryKey: ['project'],
    queryFn: async (): Promise<string> => (await client().listAlerts({ limit: 1 })).items[0]?.cmsProjectId ?? 'no alerts yet',
    staleTime: Infinity,
  });
}
