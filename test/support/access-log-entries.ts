/** Access log entries for tests: hand-made ones for store tests, and those a service wrote, found by request id. */
import type { AccessLogEntry } from '../../src/access-log/access-log.js';
import type { Store } from '../../src/store/store.js';

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

/** The entries of these request ids among `projects`' entries, once the batched writer has stored them all (or those found by then). */
export async function loggedEntries(store: Pick<Store, 'queryAccessLog'>, projects: readonly string[], ids: readonly string[]): Promise<Map<string, AccessLogEntry>> {
  const found = new Map<string, AccessLogEntry>();
  for (let i = 0; i < 200 && found.size < ids.length; i++) {
    for (const project of projects) {
      for (const e of await store.queryAccessLog({ project, limit: 10_000 })) if (ids.includes(e.requestId)) found.set(e.requestId, e);
    }
    if (found.size < ids.length) await new Promise((r) => setTimeout(r, 50));
  }
  return found;
}
