/** POST /records — imports pushed NDJSON envelopes into the key's project (the records:write scope); answers the import's counts and rejects. */
import { createReadStream } from 'node:fs';
import { MAX_LISTED_REJECTS, type ImportReject, type ImportResult } from '../../contract/import-result.js';
import { WRITE_OPERATIONS } from '../../contract/operations.js';
import { requireAccess } from '../access.js';
import { withoutIdleTimeout } from '../idle-timeout.js';
import { bodyEncoding, spoolBody } from '../ndjson-body.js';
import { parseParameters } from '../parameters.js';
import { routePath } from '../read-route.js';
import type { RouteDeps } from './send-record.js';

const OP = WRITE_OPERATIONS.pushRecords;

/** Registers the push: the door with its scope, the body checked and held whole within `maxBytes`, then the import. */
export function pushRecordsRoute(deps: RouteDeps, maxBytes: number): void {
  deps.app.post(routePath(deps.basePath, OP.path), async (request, reply) => {
    const reader = await requireAccess(deps.access, request, OP.scope, (name, value) => void reply.header(name, value));
    parseParameters(OP, request.params as Record<string, string>, request.url);
    const encoding = bodyEncoding(request.raw, maxBytes);
    // Held on disk until it is known to be within the limit: a body over it stores nothing.
    const body = await spoolBody(request.raw, encoding, maxBytes);
    try {
      const rejects: ImportReject[] = [];
      let omitted = 0;
      // The body is in: from here until the answer, the time is the import's, not the client's.
      const summary = await withoutIdleTimeout(request, () =>
        reader.importRecords(createReadStream(body.file, { highWaterMark: 1 << 20 }), (line, issues) => {
          for (const issue of issues) {
            if (rejects.length < MAX_LISTED_REJECTS) rejects.push({ line, pointer: issue.path, message: issue.message });
            else omitted++;
          }
        }),
      );
      const answer: ImportResult = { ...summary, rejects, rejectsOmitted: omitted };
      return reply.header('cache-control', 'no-store').type('application/json; charset=utf-8').send(JSON.stringify(answer));
    } finally {
      await body.remove();
    }
  });
}
