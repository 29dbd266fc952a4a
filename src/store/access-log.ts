/** The access log as the store keeps it: append-only entries of who read (or tried to read) what. */

/** One read of a record, or one refused attempt. */
export interface AccessLogEntry {
  /** ISO 8601 UTC time of the answer. */
  at: string;
  /** The API key's id; null when no valid key was presented. */
  keyId: string | null;
  /** The key's project; '' when no valid key was presented. */
  project: string;
  /** The route pattern, e.g. /v1/companies/:id/details. */
  route: string;
  /** The lookup key of the record asked for (company, customer, alert or file), when there is one. */
  recordId: string | null;
  status: number;
  requestId: string;
  client: string;
}

/** Which entries to read back, newest last. */
export interface AccessLogQuery {
  project: string;
  since?: string;
  until?: string;
  recordId?: string;
  limit: number;
}

/** The access log part of a store: entries are only ever appended and read. */
export interface AccessLogStore {
  appendAccessLog(entries: readonly AccessLogEntry[]): Promise<void>;
  queryAccessLog(query: AccessLogQuery): Promise<AccessLogEntry[]>;
}

/** The WHERE clause and parameters of an access log query, shared by the SQL dialects. */
export function accessLogWhere(q: AccessLogQuery, placeholder: (n: number) => string): { where: string; params: unknown[] } {
  const params: unknown[] = [q.project];
  const where = [`project = ${placeholder(1)}`];
  if (q.recordId !== undefined) {
    params.push(q.recordId);
    where.push(`record_id = ${placeholder(params.length)}`);
  }
  if (q.since !== undefined) {
    params.push(q.since);
    where.push(`at >= ${placeholder(params.length)}`);
  }
  if (q.until !== undefined) {
    params.push(q.until);
    where.push(`at < ${placeholder(params.length)}`);
  }
  return { where: where.join(' AND '), params };
}

/** Row shape of the access_log table in both dialects. */
export interface AccessLogRow {
  at: string;
  key_id: string | null;
  project: string;
  route: string;
  record_id: string | null;
  status: number;
  request_id: string;
  client: string;
}

/** An entry from its row. */
export function entryOfRow(r: AccessLogRow): AccessLogEntry {
  return { at: r.at, keyId: r.key_id, project: r.project, route: r.route, recordId: r.record_id, status: Number(r.status), requestId: r.request_id, client: r.client };
}
