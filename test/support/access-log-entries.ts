/** Hand-made access log entries for store tests: a read of a company at a minute of 2026-03-01 10:xx. */
import type { AccessLogEntry } from '../../src/access-log/access-log.js';

/** The entry of a 200 read at 10:`minute`, with request id r-<project>-<minute>. */
export function accessLogEntry(minute: number, recordId: string | null, project: string): AccessLogEntry {
  return {
    at: `2026-03-01T10:${String(minute).padStart(2, '0')}:00.000Z`,
    keyId: 'k1',
    project,
    route: '/v1/companies/:id/details',
    recordId,
    status: 200,
    requestId: `r-${project}-${minute}`,
    client: '127.0.0.1',
  };
}
