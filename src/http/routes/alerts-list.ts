/** GET /alerts — the project's alert summaries, filtered, sorted and keyset-paged. */
import { ServiceError } from '../../contract/error-codes.js';
import { DEFAULT_PAGE_SIZE, OPERATIONS } from '../../contract/operations.js';
import { recordKey } from '../../contract/record-key.js';
import type { AlertFilter, AlertPosition } from '../../store/store.js';
import { pickEncoding } from '../accept.js';
import { decodeCursor } from '../cursors.js';
import type { Parameters } from '../parameters.js';
import { sendListPage } from '../list-page.js';
import { instantOf, listFilterOf, setOf } from '../list-query.js';
import { readRoute } from '../read-route.js';
import type { RouteDeps } from './send-record.js';

const OP = OPERATIONS.listAlerts;
/** The `assignedTo` value that asks for alerts assigned to no one. */
export const UNASSIGNED = 'none';

/** Registers the alert list operation. */
export function alertsListRoute(deps: RouteDeps): void {
  readRoute(deps.app, deps.access, deps.basePath, OP, async ({ request, reply, reader, params }) => {
    const { filter, json } = listFilterOf(params, filterOf);
    const limit = (params.query.limit as number | undefined) ?? DEFAULT_PAGE_SIZE;
    // The cursor is bound to the operation, the project, the filters, the sort and the order.
    const queryId = `["alerts",${JSON.stringify(reader.project)},${json}]`;
    let after: AlertPosition | undefined;
    const cursor = params.query.cursor as string | undefined;
    if (cursor !== undefined) {
      const pos = decodeCursor(deps.secret, queryId, cursor);
      if (pos === undefined) {
        throw new ServiceError('invalid_request', 'the request has invalid parameters', [
          { message: 'cursor: not valid for this query (altered, or issued with other filters, sort or order, or for another project)' },
        ]);
      }
      after = { sortKey: pos[0], alertKey: pos[1] };
    }
    const encoding = pickEncoding(request.headers['accept-encoding']);
    const rows = await reader.listAlerts(filter, after, limit + 1, encoding);
    await sendListPage(request, reply, params, rows, {
      path: `${deps.basePath}/alerts`,
      queryId,
      keyOf: (r) => r.alertKey,
      limit,
      encoding,
      secret: deps.secret,
      cacheControl: deps.cacheControl,
      charge: reader.charge,
      view: reader.viewOf('alertSummary'),
    });
  });
}

/** The store filter of validated query values: sets deduplicated and sorted, instants as keys, the customer by its lookup key. */
export function filterOf(params: Parameters): AlertFilter {
  const q = params.query;
  const filter: AlertFilter = {
    sort: (q.sort as 'updatedAt' | 'createdAt' | undefined) ?? 'updatedAt',
    order: (q.order as 'asc' | 'desc' | undefined) ?? 'desc',
  };
  const statuses = setOf(q.status);
  const severities = setOf(q.severity);
  const categories = setOf(q.category);
  const types = setOf(q.type);
  if (statuses !== undefined) filter.statuses = statuses;
  if (severities !== undefined) filter.severities = severities;
  if (categories !== undefined) filter.categories = categories;
  if (types !== undefined) filter.types = types;
  if (q.customerId !== undefined) filter.customerKey = recordKey(q.customerId as string);
  if (q.assignedTo !== undefined) filter.assignedTo = q.assignedTo === UNASSIGNED ? null : (q.assignedTo as string);
  if (q.seen !== undefined) filter.seen = q.seen === 'true';
  if (q.createdFrom !== undefined) filter.createdFrom = instantOf('createdFrom', q.createdFrom as string);
  if (q.createdTo !== undefined) filter.createdTo = instantOf('createdTo', q.createdTo as string);
  if (q.updatedFrom !== undefined) filter.updatedFrom = instantOf('updatedFrom', q.updatedFrom as string);
  if (q.updatedTo !== undefined) filter.updatedTo = instantOf('updatedTo', q.updatedTo as string);
  return filter;
}
