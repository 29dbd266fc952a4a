/** GET /companies/:id/details — a company customer's KYB record. */
import { OPERATIONS } from '../../contract/operations.js';
import { readRoute } from '../read-route.js';
import { pickEncoding } from '../accept.js';
import { serveRecord, type RouteDeps } from './send-record.js';

/** Registers the company details operation. */
export function companyDetailsRoute(deps: RouteDeps): void {
  readRoute(deps.app, deps.access, deps.basePath, OPERATIONS.getCompanyDetails, async ({ request, reply, reader, params }) => {
    const encoding = pickEncoding(request.headers['accept-encoding']);
    await serveRecord(deps, request, reply, reader, 'company', params.path.id!, encoding);
  });
}
