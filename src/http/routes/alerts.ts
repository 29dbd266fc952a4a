/** GET /alerts/:id — one alert with its notes, audit trail and screening data. */
import { ServiceError } from '../../contract/error-codes.js';
import { OPERATIONS } from '../../contract/operations.js';
import { readRoute } from '../read-route.js';
import { pickEncoding } from '../accept.js';
import { sendRecord, type RouteDeps } from './send-record.js';

/** Registers the alert operation. */
export function alertRoute(deps: RouteDeps): void {
  readRoute(deps.app, deps.access, deps.basePath, OPERATIONS.getAlert, async ({ request, reply, reader, params }) => {
    const encoding = pickEncoding(request.headers['accept-encoding']);
    const stored = await reader.getAlert(params.path.id!, encoding);
    if (stored === undefined) throw new ServiceError('not_found', 'no alert with this id');
    await sendRecord(deps, request, reply, reader, stored, encoding, 'alert');
  });
}
