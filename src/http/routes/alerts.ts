/** GET /alerts/:id — one alert with its notes, audit trail and screening data. */
import { OPERATIONS } from '../../contract/operations.js';
import { readRoute } from '../read-route.js';
import { pickEncoding } from '../accept.js';
import { serveRecord, type RouteDeps } from './send-record.js';

/** Registers the alert operation. */
export function alertRoute(deps: RouteDeps): void {
  readRoute(deps.app, deps.access, deps.basePath, OPERATIONS.getAlert, async ({ request, reply, reader, params }) => {
    const encoding = pickEncoding(request.headers['accept-encoding']);
    await serveRecord(deps, request, reply, reader, 'alert', params.path.id!, encoding);
  });
}
