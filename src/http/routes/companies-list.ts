/** GET /companies — the project's company summaries: filtered, searched, keyset-paged. */
import { createHash } from 'node:crypto';
import { ServiceError } from '../../contract/error-codes.js';
import { instantKey, isDateTime } from '../../contract/index.js';
import { DEFAULT_PAGE_SIZE, OPERATIONS } from '../../contract/operations.js';
import type { CompanyFilter, CompanyPosition } from '../../store/store.js';
import { decodeCursor, encodeCursor } from '../cursors.js';
import { readRoute } from '../read-route.js';
import type { Parameters } from '../parameters.js';
import { pickEncoding } from '../accept.js';
import { sendAnswer } from '../respond.js';
import { noteAnswerRecords } from '../access-log-hook.js';
import type { RouteDeps } from './send-record.js';

const OP = OPERATIONS.listCompanies;

/** Registers the company list operation. */
export function companiesListRoute(deps: RouteDeps): void {
  readRoute(deps.app, deps.access, deps.basePath, OP, async ({ request, reply, reader, params }) => {
    const filter = filterOf(params);
    const limit = (params.query.limit as number | undefined) ?? DEFAULT_PAGE_SIZE;
    // The cursor is bound to the project, the filters and the search that produced it.
    const queryId = JSON.stringify(['companies', reader.project, filter]);
    let after: CompanyPosition | undefined;
    const cursor = params.query.cursor as string | undefined;
    if (cursor !== undefined) {
      const pos = decodeCursor(deps.secret, queryId, cursor);
      if (pos === undefined) {
        throw new ServiceError('invalid_request', 'the request has invalid parameters', [
          { message: 'cursor: not valid for this query (altered, or issued with other filters or search, or for another project)' },
        ]);
      }
      after = { sortKey: pos[0], key: pos[1] };
    }
    const encoding = pickEncoding(request.headers['accept-encoding']);
    const rows = await reader.listCompanies(filter, after, limit + 1, encoding);
    const page = rows.slice(0, limit);
    noteAnswerRecords(
      request,
      page.map((r) => r.key),
    );
    const hash = createHash('sha256');
    for (const r of page) hash.update(r.etag).update('\n');
    if (rows.length > limit) {
      const last = page[page.length - 1]!;
      const next = encodeCursor(deps.secret, queryId, [last.sortKey, last.key]);
      hash.update(next);
      reply.header('link', `<${nextUrl(deps.basePath, params, next)}>; rel="next"`);
    }
    await sendAnswer(request, reply, page, encoding, {
      etag: hash.digest('base64url').slice(0, 27),
      cacheControl: deps.cacheControl,
      charge: reader.charge,
    });
  });
}

/** A repeatable value as a sorted set, so the same filter in another spelling binds the same cursor. */
function setOf(value: unknown): string[] | undefined {
  const values = value as string[] | undefined;
  return values === undefined || values.length === 0 ? undefined : [...new Set(values)].sort();
}

/** The store filter of validated query values. */
function filterOf(params: Parameters): CompanyFilter {
  const q = params.query;
  if (q.q !== undefined && q.order !== undefined) {
    throw new ServiceError('invalid_request', 'the request has invalid parameters', [
      { message: 'order: not allowed with q (search results come by relevance, then id)' },
    ]);
  }
  const filter: CompanyFilter = { order: (q.order as 'asc' | 'desc' | undefined) ?? 'desc' };
  const sets = { statuses: setOf(q.status), onboardingLevels: setOf(q.onboardingLevel), riskScores: setOf(q.riskScore), countries: setOf(q.country) };
  for (const [name, value] of Object.entries(sets)) if (value !== undefined) filter[name as keyof typeof sets] = value;
  if (q.updatedFrom !== undefined) filter.from = instantOf('updatedFrom', q.updatedFrom as string);
  if (q.updatedTo !== undefined) filter.to = instantOf('updatedTo', q.updatedTo as string);
  if (q.q !== undefined) filter.q = q.q as string;
  return filter;
}

/** The sort key of an `updatedFrom`/`updatedTo` value; a plain date means midnight UTC. */
function instantOf(name: string, value: string): string {
  const full = value.length === 10 ? `${value}T00:00:00Z` : value;
  if (!isDateTime(full)) {
    throw new ServiceError('invalid_request', 'the request has invalid parameters', [
      { message: `${name}: not a real date and time, got ${JSON.stringify(value.slice(0, 100))}` },
    ]);
  }
  return instantKey(full);
}

/** The next page's URL: the same filters, search and limit, plus the cursor. */
function nextUrl(basePath: string, params: Parameters, cursor: string): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params.query)) {
    if (name === 'cursor' || value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) search.append(name, String(v));
  }
  search.append('cursor', cursor);
  return `${basePath}/companies?${search.toString()}`;
}
