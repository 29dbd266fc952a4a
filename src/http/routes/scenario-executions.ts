/** GET /customers/:customerId/scenario-executions — filtered, keyset-paged execution history. */
import { ServiceError } from '../../contract/error-codes.js';
import { DEFAULT_PAGE_SIZE, OPERATIONS } from '../../contract/operations.js';
import { recordKey } from '../../contract/record-key.js';
import type { ExecutionFilter, ExecutionPosition } from '../../store/store.js';
import { decodeCursor } from '../cursors.js';
import { sendListPage } from '../list-page.js';
import { instantOf, listFilterOf, setOf } from '../list-query.js';
import { readRoute } from '../read-route.js';
import type { Parameters } from '../parameters.js';
import { pickEncoding } from '../accept.js';
import type { RouteDeps } from './send-record.js';

const OP = OPERATIONS.getCustomerScenarioExecutions;

/** Registers the scenario executions operation. */
export function scenarioExecutionsRoute(deps: RouteDeps): void {
  readRoute(deps.app, deps.access, deps.basePath, OP, async ({ request, reply, reader, params }) => {
    const customerId = params.path.customerId!;
    const { filter, json } = listFilterOf(params, filterOf);
    const limit = (params.query.limit as number | undefined) ?? DEFAULT_PAGE_SIZE;
    // The cursor is bound to the project, customer and filters that produced it.
    const queryId = `[${JSON.stringify(reader.project)},${JSON.stringify(recordKey(customerId))},${json}]`;
    let after: ExecutionPosition | undefined;
    const cursor = params.query.cursor as string | undefined;
    if (cursor !== undefined) {
      const pos = decodeCursor(deps.secret, queryId, cursor);
      if (pos === undefined) {
        throw new ServiceError('invalid_request', 'the request has invalid parameters', [
          { message: 'cursor: not valid for this query (altered, or issued with other filters or for another customer)' },
        ]);
      }
      after = { sortKey: pos[0], executionId: pos[1] };
    }
    const encoding = pickEncoding(request.headers['accept-encoding']);
    const rows = await reader.listExecutions(customerId, filter, after, limit + 1, encoding);
    // A page with rows names a known customer; only an empty one asks whether the customer exists.
    if (rows.length === 0 && !(await reader.customerKnown(customerId))) throw new ServiceError('not_found', 'no customer with this id');
    await sendListPage(request, reply, params, rows, {
      path: `${deps.basePath}/customers/${encodeURIComponent(customerId)}/scenario-executions`,
      queryId,
      keyOf: (r) => r.executionId,
      // The customer stays the entry's record; the executions returned are named for "who saw execution X".
      recordOf: (r) => recordKey(r.executionId),
      limit,
      encoding,
      secret: deps.secret,
      cacheControl: deps.cacheControl,
      charge: reader.charge,
      view: reader.viewOf('execution'),
    });
  });
}

/** The store filter of validated query values: statuses as a set, instants as sort keys. */
function filterOf(params: Parameters): ExecutionFilter {
  const q = params.query;
  const statuses = setOf(q.status);
  const filter: ExecutionFilter = { order: (q.order as 'asc' | 'desc' | undefined) ?? 'desc' };
  if (statuses !== undefined) filter.statuses = statuses;
  if (q.scenarioId !== undefined) filter.scenarioId = q.scenarioId as string;
  if (q.objectType !== undefined) filter.objectType = q.objectType as string;
  if (q.from !== undefined) filter.from = instantOf('from', q.from as string);
  if (q.to !== undefined) filter.to = instantOf('to', q.to as string);
  return filter;
}
