/** The measured scenarios and the request lists each one draws from, per store. */
import type { Manifest, SampledId } from './manifest.js';

/** One request the load generator may send: a path and its headers (the key's Authorization included). */
export interface RequestSpec {
  path: string;
  headers: Record<string, string>;
}

export type ScenarioName =
  | 'company'
  | 'company-gzip'
  | 'company-redacted'
  | 'company-redacted-gzip'
  | 'alert-median-redacted'
  | 'alert-small'
  | 'alert-small-gzip'
  | 'alert-median'
  | 'alert-median-gzip'
  | 'alert-1mb'
  | 'alert-1mb-gzip'
  | 'executions-first'
  | 'executions-deep'
  | 'etag-304'
  | 'alert-list'
  | 'alert-list-filtered'
  | 'company-list'
  | 'company-search'
  | 'changes-page';

export interface Scenario {
  name: ScenarioName;
  /** The status every answer must have; anything else is counted as unexpected. */
  expect: 200 | 304;
}

export const SCENARIOS: readonly Scenario[] = [
  { name: 'company', expect: 200 },
  { name: 'company-gzip', expect: 200 },
  { name: 'company-redacted', expect: 200 },
  { name: 'company-redacted-gzip', expect: 200 },
  { name: 'alert-median-redacted', expect: 200 },
  { name: 'alert-small', expect: 200 },
  { name: 'alert-small-gzip', expect: 200 },
  { name: 'alert-median', expect: 200 },
  { name: 'alert-median-gzip', expect: 200 },
  { name: 'alert-1mb', expect: 200 },
  { name: 'alert-1mb-gzip', expect: 200 },
  { name: 'executions-first', expect: 200 },
  { name: 'executions-deep', expect: 200 },
  { name: 'etag-304', expect: 304 },
  { name: 'alert-list', expect: 200 },
  { name: 'alert-list-filtered', expect: 200 },
  { name: 'company-list', expect: 200 },
  { name: 'company-search', expect: 200 },
  { name: 'changes-page', expect: 200 },
];

/** The page size of the list scenarios: the API's default. */
export const LIST_LIMIT = 50;
/** The page size a feed consumer catching up asks for: the API's largest. */
export const FEED_LIMIT = 1000;
/** The alert statuses the filtered list asks for, two at once: the filter skips rows inside the index range. */
export const ALERT_LIST_FILTER = 'status=Open&status=Pending&order=desc';

/** The filter of both executions scenarios: deep pages must be reached with the same one. */
export const EXECUTIONS_FILTER = 'status=valid&limit=50';

/** Inputs for one store's request lists. */
export interface RequestInputs {
  manifest: Manifest;
  keys: Map<string, string>;
  /** Keys with every read scope but no data scope (pii, documents, screening): their answers are redacted. */
  redactedKeys: Map<string, string>;
  /** Paths of deep executions pages, as given by Link headers (real cursors). */
  deepPaths: string[];
  /** Current ETag per company path, for the revalidation scenario. */
  etags: Map<string, string>;
  /** Search terms taken from the store's own company names, per project. */
  searchTerms: { project: string; q: string }[];
  /** Paths (with real cursors) of full pages of each project's change feed. */
  feedPaths: { project: string; path: string }[];
}

function auth(keys: Map<string, string>, project: string): Record<string, string> {
  const key = keys.get(project);
  if (key === undefined) throw new Error(`no key for project ${project}`);
  return { authorization: `Bearer ${key}` };
}

/** The path of a company's details. */
export const companyPath = (id: string): string => `/v1/companies/${encodeURIComponent(id)}/details`;
const alertPath = (id: string): string => `/v1/alerts/${encodeURIComponent(id)}`;
/** The first page of the heavy customer's executions. */
export const firstPagePath = (customerId: string): string => `/v1/customers/${encodeURIComponent(customerId)}/scenario-executions?${EXECUTIONS_FILTER}`;

function records(ids: SampledId[], keys: Map<string, string>, path: (id: string) => string, gzip: boolean): RequestSpec[] {
  return ids.map((s) => ({ path: path(s.id), headers: { ...auth(keys, s.project), ...(gzip ? { 'accept-encoding': 'gzip' } : {}) } }));
}

/** A project's list paths: the first page of its alerts, filtered or not, and of its companies. */
export const alertListPath = (filter: string): string => `/v1/alerts?limit=${LIST_LIMIT}${filter === '' ? '' : `&${filter}`}`;
export const companyListPath = (q?: string): string => `/v1/companies?limit=${LIST_LIMIT}${q === undefined ? '' : `&q=${encodeURIComponent(q)}`}`;
export const feedPath = (): string => `/v1/changes?limit=${FEED_LIMIT}`;

/** The request list of a scenario on one store. */
export function requestsFor(name: ScenarioName, inp: RequestInputs): RequestSpec[] {
  const { manifest: m, keys } = inp;
  const s = m.samples;
  const heavy = auth(keys, m.heavyCustomer.project);
  switch (name) {
    case 'company':
    case 'company-gzip':
      return records(s.company, keys, companyPath, name.endsWith('gzip'));
    case 'company-redacted':
    case 'company-redacted-gzip':
      return records(s.company, inp.redactedKeys, companyPath, name.endsWith('gzip'));
    case 'alert-median-redacted':
      return records(s.alertMedian, inp.redactedKeys, alertPath, false);
    case 'alert-small':
    case 'alert-small-gzip':
      return records(s.alertSmall, keys, alertPath, name.endsWith('gzip'));
    case 'alert-median':
    case 'alert-median-gzip':
      return records(s.alertMedian, keys, alertPath, name.endsWith('gzip'));
    case 'alert-1mb':
    case 'alert-1mb-gzip':
      return records(s.alertLarge, keys, alertPath, name.endsWith('gzip'));
    case 'executions-first':
      return [{ path: firstPagePath(m.heavyCustomer.id), headers: heavy }];
    case 'executions-deep':
      return inp.deepPaths.map((path) => ({ path, headers: heavy }));
    case 'alert-list':
      return m.projects.map((p) => ({ path: alertListPath(''), headers: auth(keys, p) }));
    case 'alert-list-filtered':
      return m.projects.map((p) => ({ path: alertListPath(ALERT_LIST_FILTER), headers: auth(keys, p) }));
    case 'company-list':
      return m.projects.map((p) => ({ path: companyListPath(), headers: auth(keys, p) }));
    case 'company-search':
      if (inp.searchTerms.length === 0) throw new Error('no search terms captured');
      return inp.searchTerms.map((t) => ({ path: companyListPath(t.q), headers: auth(keys, t.project) }));
    case 'changes-page':
      if (inp.feedPaths.length === 0) throw new Error('no feed pages captured');
      return inp.feedPaths.map((f) => ({ path: f.path, headers: auth(keys, f.project) }));
    case 'etag-304':
      return s.company.map((c) => {
        const path = companyPath(c.id);
        const etag = inp.etags.get(path);
        if (etag === undefined) throw new Error(`no ETag captured for ${path}`);
        return { path, headers: { ...auth(keys, c.project), 'if-none-match': etag } };
      });
  }
}
