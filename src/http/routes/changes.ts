/** GET /changes — the project's resumable change feed, with an optional long poll. */
import { createHash } from 'node:crypto';
import { ServiceError } from '../../contract/error-codes.js';
import { DEFAULT_CHANGES_PAGE, OPERATIONS } from '../../contract/operations.js';
import type { Change } from '../../contract/change.js';
import type { ChangePosition, StoredChange } from '../../store/store.js';
import type { View } from '../../wire/redaction.js';
import { pickEncoding } from '../accept.js';
import { noteAnswerRecords } from '../access-log-hook.js';
import type { FeedKind, ProjectReader } from '../access.js';
import { decodeCursor, encodeCursor } from '../cursors.js';
import { noteHeld } from '../held-time.js';
import { withoutIdleTimeout } from '../idle-timeout.js';
import type { Parameters } from '../parameters.js';
import { viewEtag } from '../view-etag.js';
import { readRoute } from '../read-route.js';
import { sendAnswer } from '../respond.js';
import type { RouteDeps } from './send-record.js';

const OP = OPERATIONS.listChanges;

/** Where a feed read with no `after` starts. */
const BEGINNING: ChangePosition = { xid: '0', seq: '0' };

/** Registers the change feed; `closing` aborts when the server closes, ending every wait at once. */
export function changesRoute(deps: RouteDeps & { closing: AbortSignal }): void {
  readRoute(deps.app, deps.access, deps.basePath, OP, async ({ request, reply, reader, params }) => {
    const limit = (params.query.limit as number | undefined) ?? DEFAULT_CHANGES_PAGE;
    const waitSeconds = (params.query.wait as number | undefined) ?? 0;
    // The cursor is bound to the project: another project's cursor fails its signature.
    const queryId = JSON.stringify(['changes', reader.project]);
    const after = positionOf(deps.secret, queryId, params.query.after as string | undefined);
    let page = await reader.listChanges(after, limit);
    if (page.length === 0 && waitSeconds > 0) {
      const waitFrom = performance.now();
      const signal = abortOnEnd(deps.closing, reply.raw);
      page = await withoutIdleTimeout(request, () => waitForPage(reader, after, limit, waitSeconds * 1000, signal));
      // A long poll is slow by design: its wait does not make the answer a slow one in the log.
      noteHeld(request, performance.now() - waitFrom);
    }
    // Answered because the server is closing: its socket goes too, rather than idling open and holding the close.
    if (deps.closing.aborted) reply.header('connection', 'close');
    const position = page.length > 0 ? page[page.length - 1]!.position : after;
    const next = encodeCursor(deps.secret, queryId, [position.xid, position.seq]);
    reply.header('link', `<${nextUrl(deps.basePath, params, next)}>; rel="next"`);
    noteAnswerRecords(request, page.map((c) => c.recordKey));
    const views = viewsOf(reader);
    const hash = createHash('sha256');
    // An entry's bytes never change at its position (a rewrite takes a new one), so positions and the views name the page.
    for (const c of page) hash.update(c.position.xid).update(':').update(c.position.seq).update('\n');
    hash.update(next);
    for (const v of Object.values(views)) if (v !== undefined) hash.update(`\n${v.kind} ${v.tag}`);
    await sendAnswer(request, reply, asViewed(page, views, deps.secret), pickEncoding(request.headers['accept-encoding']), {
      etag: hash.digest('base64url').slice(0, 27),
      cacheControl: deps.cacheControl,
      charge: reader.charge,
    });
  });
}

/** The views the feed names each kind of record under to the reader (see feedViewOf); undefined where it sees every field. */
function viewsOf(reader: ProjectReader): Record<FeedKind, View | undefined> {
  return { company: reader.feedViewOf('company'), alert: reader.feedViewOf('alert'), execution: reader.feedViewOf('execution') };
}

/** The page as a reader with `views` is shown it: an upsert's etag is the one its reads are served under (see viewEtag). */
function asViewed(page: StoredChange[], views: Record<FeedKind, View | undefined>, secret: Buffer): StoredChange[] {
  if (views.company === undefined && views.alert === undefined && views.execution === undefined) return page;
  return page.map((c) => {
    if (c.body === null) return c;
    const item = JSON.parse(c.body.toString('utf8')) as Change;
    const view = views[item.kind === 'customer' ? 'company' : item.kind];
    if (view === undefined || item.etag === null) return c;
    return { ...c, body: Buffer.from(JSON.stringify({ ...item, etag: viewEtag(secret, item.etag, view) }), 'utf8') };
  });
}

/** The position `after` names, the beginning when absent; a cursor not issued for this project is refused. */
function positionOf(secret: Buffer, queryId: string, after: string | undefined): ChangePosition {
  if (after === undefined) return BEGINNING;
  const decoded = decodeCursor(secret, queryId, after);
  if (decoded === undefined || !/^\d{1,20}$/.test(decoded[0]) || !/^\d{1,20}$/.test(decoded[1])) {
    throw new ServiceError('invalid_request', 'the request has invalid parameters', [
      { message: 'after: not a position of this project\'s change feed (altered, or issued for another project)' },
    ]);
  }
  return { xid: decoded[0], seq: decoded[1] };
}

/**
 * Holds an empty answer open until a change arrives past `after`, `ms` pass or `signal` aborts.
 * A wake may be early (another writer, a change not past `after`), so the page is read again and
 * the wait resumes with what time is left; a store too busy to hold one more wait answers at once.
 */
async function waitForPage(reader: ProjectReader, after: ChangePosition, limit: number, ms: number, signal: AbortSignal): Promise<StoredChange[]> {
  const deadline = Date.now() + ms;
  for (;;) {
    const left = deadline - Date.now();
    if (left <= 0 || signal.aborted) return [];
    const outcome = await reader.waitForChanges(after, left, signal);
    if (outcome === 'busy' || signal.aborted) return [];
    const page = await reader.listChanges(after, limit);
    if (page.length > 0 || outcome === 'timeout') return page;
  }
}

/** A signal that aborts when the server closes or the client goes away before its answer. */
function abortOnEnd(closing: AbortSignal, response: NodeJS.EventEmitter): AbortSignal {
  const gone = new AbortController();
  response.once('close', () => gone.abort());
  return AbortSignal.any([closing, gone.signal]);
}

/** The URL to poll next: the same limit and wait, `after` at the answer's last position. */
function nextUrl(basePath: string, params: Parameters, cursor: string): string {
  const search = new URLSearchParams();
  for (const name of ['limit', 'wait'] as const) {
    const value = params.query[name];
    if (value !== undefined) search.append(name, String(value));
  }
  search.append('after', cursor);
  return `${basePath}${OP.path}?${search.toString()}`;
}
