/** GET /alerts/counts — how many of the project's alerts match the list's filters, in all and by status. */
import { createHash } from 'node:crypto';
import { alertCountsOf } from '../../contract/alert-counts.js';
import { OPERATIONS } from '../../contract/operations.js';
import { pickEncoding } from '../accept.js';
import { readRoute } from '../read-route.js';
import { sendAnswer } from '../respond.js';
import { filterOf } from './alerts-list.js';
import type { RouteDeps } from './send-record.js';

const OP = OPERATIONS.countAlerts;

/** Registers the alert counts operation; it names no record, so the access log entry carries none. */
export function alertsCountsRoute(deps: RouteDeps): void {
  readRoute(deps.app, deps.access, deps.basePath, OP, async ({ request, reply, reader, params }) => {
    // The list's filter without its sort and order: the query has neither, nor a status.
    const { sort: _sort, order: _order, ...filter } = filterOf(params);
    const counts = alertCountsOf(await reader.countAlerts(filter));
    const body = Buffer.from(JSON.stringify(counts));
    const etag = createHash('sha256').update(body).digest('base64url').slice(0, 27);
    await sendAnswer(request, reply, { etag, body, layout: null, deflated: null }, pickEncoding(request.headers['accept-encoding']), {
      etag,
      cacheControl: deps.cacheControl,
      charge: reader.charge,
    });
  });
}
