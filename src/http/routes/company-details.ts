/** GET /companies/:id/details — a company customer's KYB record. */
import { ServiceError } from '../../contract/error-codes.js';
import { OPERATIONS } from '../../contract/operations.js';
import { readRoute } from '../read-route.js';
import { pickEncoding } from '../accept.js';
import { sendRecord, type RouteDeps } from './send-record.js';

/** Registers the company details operation. */
export function companyDetailsRoute(deps: RouteDeps): void {
  readRoute(deps.app, deps.access, deps.basePath, OPERATIONS.getCompanyDetails, async ({ request, reply, reader, params }) => {
    const encoding = pickEncoding(request.headers['accept-encoding']);
    const stored = await reader.getCompany(params.path.id!, encoding);
    if (stored === undefined) throw new ServiceError('not_found', 'no company with this id');
    await sendRecord(deps, request, reply, reader, stored, encoding, 'company');
  });
}
