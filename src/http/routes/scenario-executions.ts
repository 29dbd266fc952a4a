/** GET /customers/:customerId/scenario-executions — filtered, keyset-paged execution history. */
import { createHash } from 'node:crypto';
import { ServiceError } from '../../contract/error-codes.js';
import { DEFAULT_PAGE_SIZE, OPERATIONS } from '../../contract/operations.js';
import { recordKey } from '../../contract/record-key.js';
import type { ExecutionFilter, ExecutionPosition } from '../../store/store.js';
import { noteAnswerRecords } from '../access-log-hook.js';
import { decodeCursor, encodeCursor } from '../cursors.js';
import { instantOf, nextPageUrl } from '../list-query.js';
import { readRoute } from '../read-route.js';
import type { Parameters } from '../parameters.js';
import { pickEncoding } from '../accept.js';
import { sendAnswer } from '../respond.js';
import type { RouteDeps } from './send-record.js';

const OP = OPERATIONS.getCustomerScenarioExecutions;

/** Registers the scenario executions operation. */
export function scenarioExecutionsRoute(deps: RouteDeps): void {
  readRoute(deps.app, deps.access, deps.basePath, OP, async ({ request, reply, reader, params }) => {
    const customerId = params.path.customerId!;
    const filter = filterOf(params);
    const limit = (params.query.limit as number | undefined) ?? DEFAULT_PAGE_SIZE;
    // The cursor is bound to the project, customer and filters that produced it.
    const queryId = JSON.stringify([reader.project, recordKey(customerId), filter]);
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
    if (!(await reader.customerKnown(customerId))) throw new ServiceError('not_found', 'no customer with this id');
    const encoding = pickEncoding(request.headers['accept-encoding']);
    const rows = await reader.listExecutions(customerId, filter, after, limit + 1, encoding);
    const page = rows.slice(0, limit);
    const hash = createHash('sha256');
    for (const r of page) hash.update(r.etag).update('\n');
    if (rows.length > limit) {
      const last = page[page.length - 1]!;
      const next = encodeCursor(deps.secret, queryId, [last.sortKey, last.executionId]);
      hash.update(next);
      reply.header('link', `<${nextPageUrl(`${deps.basePath}/customers/${encodeURIComponent(customerId)}/scenario-executions`, params, next)}>; rel="next"`);
    }
    // The customer stays the entry's record; the executions returned are named for "who saw execution X".
    noteAnswerRecords(request, page.map((r) => recordKey(r.executionId)));
    await sendAnswer(request, reply, page, encoding, {
      etag: hash.digest('base64url').slice(0, 27),
      cacheControl: deps.cacheControl,
      charge: reader.charge,
    });
  });
}

/** The store filter of validated query values: statuses as a set, instants as sort keys. */
function filterOf(params: Parameters): ExecutionFilter {
  const q = params.query;
  const statuses = q.status as string[] | undefined;
  const filter: ExecutionFilter = { order: (q.order as 'asc' | 'desc' | undefined) ?? 'desc' };
  if (statuses !== undefined && statuses.length > 0) filter.statuses = [...new Set(statuses)].sort();
  if (q.scenarioId !== undefined) filter.scenarioId = q.scenarioId as string;
  if (q.objectType !== undefined) filter.objectType = q.objectType as string;
  if (q.from !== undefined) filter.from = instantOf('from', q.from as string);
  if (q.to !== undefined) filter.to = instantOf('to', q.to as string);
  return filter;
}
