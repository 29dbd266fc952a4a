/**
 * Sends one keyset page of a list route (alerts, companies, a customer's executions): the records it returned noted for the
 * access log, an ETag over the rows' ETags and the next cursor, `Link: rel="next"`, the rows as a
 * JSON array. What it derives from a page is kept with the store's rows array: the store's page
 * cache hands out the same array while the page is current, so a repeated page is not hashed,
 * signed or laid end to end again.
 */
import { createHmac } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Rendered, WireEncoding } from '../wire/render.js';
import type { View } from '../wire/redaction.js';
import type { RecordBytes } from '../wire/record-bytes.js';
import { noteAnswerRecords } from './access-log-hook.js';
import type { Encoding } from './accept.js';
import { encodeCursor } from './cursors.js';
import { nextPageUrl } from './list-query.js';
import type { Parameters } from './parameters.js';
import { sendAnswer } from './respond.js';

/** A row of a keyset page: its bytes, its sort value and its tie key. */
export interface PageRow extends RecordBytes {
  sortKey: string;
}

/** What a list route tells sendListPage. */
export interface ListPageOptions<R extends PageRow> {
  /** The list's path under the base path, for the next page's URL. */
  path: string;
  /** The query the cursor is bound to (operation, project, filters). */
  queryId: string;
  /** The cursor's tie key of a row. */
  keyOf: (row: R) => string;
  /** The id the access log keeps for a row, when it is not its tie key. */
  recordOf?: (row: R) => string;
  limit: number;
  encoding: Encoding;
  secret: Buffer;
  cacheControl: string;
  charge?: (tokens: number) => void;
  /** The field classes the key is not shown in the rows; undefined when it sees every field. */
  view?: View | undefined;
}

interface Derived {
  page: readonly RecordBytes[];
  ids: readonly string[];
  /** The record the Link's cursor names (the page's last), when there is a next page. */
  linked: readonly string[];
  etag: string;
  link: string | undefined;
  rendered: Map<WireEncoding, Rendered>;
}

// Keyed by the rows array, then by the request's URL (the next page's URL repeats the query's spelling) and the view.
const derivedOf = new WeakMap<readonly PageRow[], { url: string; view: View | undefined; derived: Derived }>();

function derive<R extends PageRow>(rows: readonly R[], params: Parameters, o: ListPageOptions<R>): Derived {
  const page = rows.slice(0, o.limit);
  const ids = page.map(o.recordOf ?? o.keyOf);
  // Keyed: a page of one summary masked for the key must not let it confirm guesses of what was masked.
  const hash = createHmac('sha256', o.secret);
  for (const r of page) hash.update(r.etag).update('\n');
  if (o.view !== undefined) hash.update(`view ${o.view.tag}\n`);
  let link: string | undefined;
  if (rows.length > o.limit) {
    const last = page[page.length - 1]!;
    const next = encodeCursor(o.secret, o.queryId, [last.sortKey, o.keyOf(last)]);
    hash.update(next);
    link = `<${nextPageUrl(o.path, params, next)}>; rel="next"`;
  }
  return { page, ids, linked: link === undefined ? [] : ids.slice(-1), etag: hash.digest('base64url').slice(0, 27), link, rendered: new Map() };
}

/** Sends `rows` (read with `limit + 1` to know whether a next page exists) as the page answer. */
export async function sendListPage<R extends PageRow>(
  request: FastifyRequest,
  reply: FastifyReply,
  params: Parameters,
  rows: readonly R[],
  o: ListPageOptions<R>,
): Promise<void> {
  const kept = derivedOf.get(rows);
  let derived: Derived;
  if (kept !== undefined && kept.url === request.url && kept.view === o.view) derived = kept.derived;
  else {
    derived = derive(rows, params, o);
    derivedOf.set(rows, { url: request.url, view: o.view, derived });
  }
  noteAnswerRecords(request, derived.ids, derived.linked);
  if (derived.link !== undefined) reply.header('link', derived.link);
  await sendAnswer(request, reply, derived.page, o.encoding, {
    etag: derived.etag,
    cacheControl: o.cacheControl,
    charge: o.charge,
    rendered: derived.rendered,
    view: o.view,
  });
}
