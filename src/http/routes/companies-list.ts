/** GET /companies — the project's company summaries: filtered, searched, keyset-paged. */
import { ServiceError } from '../../contract/error-codes.js';
import { DEFAULT_PAGE_SIZE, OPERATIONS } from '../../contract/operations.js';
import type { CompanyFilter, CompanyPosition } from '../../store/store.js';
import { decodeCursor } from '../cursors.js';
import { sendListPage } from '../list-page.js';
import { instantOf, listFilterOf, setOf } from '../list-query.js';
import { readRoute } from '../read-route.js';
import type { Parameters } from '../parameters.js';
import { pickEncoding } from '../accept.js';
import type { RouteDeps } from './send-record.js';

const OP = OPERATIONS.listCompanies;

/** Registers the company list operation. */
export function companiesListRoute(deps: RouteDeps): void {
  readRoute(deps.app, deps.access, deps.basePath, OP, async ({ request, reply, reader, params }) => {
    const { filter, json } = listFilterOf(params, filterOf);
    const limit = (params.query.limit as number | undefined) ?? DEFAULT_PAGE_SIZE;
    // The cursor is bound to the project, the filters and the search that produced it.
    const queryId = `["companies",${JSON.stringify(reader.project)},${json}]`;
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
    await sendListPage(request, reply, params, rows, {
      path: `${deps.basePath}/companies`,
      queryId,
      keyOf: (r) => r.key,
      limit,
      encoding,
      secret: deps.secret,
      cacheControl: deps.cacheControl,
      charge: reader.charge,
    });
  });
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
