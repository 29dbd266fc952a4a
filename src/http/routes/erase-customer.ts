/** POST /customers/:customerId/erase — erases a customer of the key's project (the records:erase scope); ?dryRun=true only counts. */
import { WRITE_OPERATIONS } from '../../contract/operations.js';
import type { ErasureResult } from '../../contract/erasure.js';
import { requireAccess } from '../access.js';
import { parseParameters } from '../parameters.js';
import { routePath } from '../read-route.js';
import type { RouteDeps } from './send-record.js';

const OP = WRITE_OPERATIONS.eraseCustomer;

/** Registers the erase operation: the access door with its scope, the parameter checks, then the erasure. */
export function eraseCustomerRoute(deps: RouteDeps): void {
  deps.app.post(routePath(deps.basePath, OP.path), async (request, reply) => {
    const reader = await requireAccess(deps.access, request, OP.scope, (name, value) => void reply.header(name, value));
    const params = parseParameters(OP, request.params as Record<string, string>, request.url);
    const customerId = params.path.customerId!;
    const report = await reader.eraseCustomer(customerId, params.query.dryRun === 'true');
    const answer: ErasureResult = { customerId, ...report };
    // An answer about one erasure, never to be served again from a cache.
    return reply.header('cache-control', 'no-store').type('application/json; charset=utf-8').send(JSON.stringify(answer));
  });
}
