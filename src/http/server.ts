/** Builds the Fastify application: the read routes behind the access door, files, errors, headers. */
import { randomUUID } from 'node:crypto';
import { METHODS, ServerResponse, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import fastifyCors from '@fastify/cors';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, type onRequestHookHandler } from 'fastify';
import type { Logger } from 'pino';
import { ServiceError } from '../contract/error-codes.js';
import type { FileStore } from '../files/file-store.js';
import type { LocalFileStore } from '../files/local-file-store.js';
import type { Store } from '../store/store.js';
import { acceptsJson } from './accept.js';
import { ApiKeyVerifier } from './api-keys.js';
import { accessLogHook, type UnroutedLog } from './access-log-hook.js';
import { AccessLogWriter, type AccessLogWriterOptions } from '../access-log/writer.js';
import { chargeRefusal, identifyPresentedKey } from './access.js';
import { RequestLog } from './request-log.js';
import { errorHandler, JSON_CSP, toServiceError } from './errors.js';
import { MemoryRateLimiter, type RateLimiter } from './rate-limit.js';
import { SETTINGS } from '../config/settings.js';
import { alertRoute } from './routes/alerts.js';
import { alertsListRoute } from './routes/alerts-list.js';
import { alertsCountsRoute } from './routes/alerts-counts.js';
import { companyDetailsRoute } from './routes/company-details.js';
import { companiesListRoute } from './routes/companies-list.js';
import { fileDownloadRoute } from './routes/file-download.js';
import { scenarioExecutionsRoute } from './routes/scenario-executions.js';
import { changesRoute } from './routes/changes.js';
import { eraseCustomerRoute } from './routes/erase-customer.js';
import { pushRecordsRoute } from './routes/push-records.js';
import { consoleRoutes } from './routes/console.js';
import { limitOptions, type ServerLimits } from './server-limits.js';
import { AnswerCache } from './answer-cache.js';
import { hooksOf } from './route-hooks.js';
import type { ImportPool } from '../ingest/import-pool.js';

/** What the server is built from. */
export interface ServerDeps {
  store: Store;
  limiter: RateLimiter;
  /** Budgets of refused answers per client address (see chargeRefusal); the settings' defaults in memory when absent. */
  refusals?: RateLimiter;
  files: FileStore;
  /** The local file store when documents are served by this service (not S3). */
  localFiles?: LocalFileStore;
  logger: Logger | false;
  basePath: string;
  cacheControl: string;
  /** Extra routes (OpenAPI document, reference page, health) added by their own modules. */
  plugins?: ((app: FastifyInstance) => void | Promise<void>)[];
  /** Socket time-outs and header size limit; Node's defaults when absent. */
  limits?: ServerLimits;
  /** Batching of the access log (every answer of a route under the base path, and every unrouted request, is recorded); false turns it off. */
  accessLog?: AccessLogWriterOptions | false;
  /** Origins allowed by CORS; CORS stays off when empty. */
  corsOrigins?: readonly string[];
  /** The built analyst console served at /console; without it /console answers that it is not built. */
  consoleDir?: string;
  /** Company and alert answers kept as sent; one of the setting's default size when absent. */
  answers?: AnswerCache;
  /**
   * Pushed records (POST /records): the largest body after decoding, the zlib level stored (the
   * settings' defaults when absent), and the worker threads the lines are prepared in (the caller closes them).
   */
  ingest?: { maxBytes: number; gzipLevel: number | null; pool?: ImportPool };
}

const SANE_REQUEST_ID = /^[A-Za-z0-9._:@-]{1,128}$/;
/** Every method Node's parser accepts: all but GET and HEAD answer 405 on a known path. */
const REFUSED_METHODS = METHODS.filter((m) => m !== 'GET' && m !== 'HEAD');

/** The headers every answer carries, whatever its route (or none). */
function baseHeaders(request: FastifyRequest, reply: FastifyReply): void {
  reply.header('x-request-id', request.id);
  reply.header('x-content-type-options', 'nosniff');
  reply.header('referrer-policy', 'no-referrer');
}

/**
 * True for a request target this service answers: a path (origin-form), `*`, or an absolute URL
 * whose authority is the Host header's (RFC 9112 requires them to be the same).
 */
function ownTarget(target: string, host: string | undefined): boolean {
  if (target === '*') return true;
  const head = target.slice(0, 8).toLowerCase();
  const start = head.startsWith('http://') ? 7 : head.startsWith('https://') ? 8 : -1;
  if (start < 0 || host === undefined) return false;
  let end = target.length;
  for (const c of ['/', '?', '#']) {
    const i = target.indexOf(c, start);
    if (i >= 0 && i < end) end = i;
  }
  return target.charCodeAt(end) === 47 && target.slice(start, end).toLowerCase() === host.toLowerCase();
}

/** JSON routes: nothing in the answer may run or be framed, and only a client taking JSON is answered. */
const jsonGate: onRequestHookHandler = (request, reply, done) => {
  reply.header('content-security-policy', JSON_CSP);
  if (!acceptsJson(request.headers.accept)) {
    done(new ServiceError('not_acceptable', 'this service answers application/json only'));
    return;
  }
  done();
};

/** How many Host lines a request's headers hold (Node keeps only the first as `headers.host`). */
function hostLines(raw: readonly string[]): number {
  let n = 0;
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.length === 4 && raw[i]!.toLowerCase() === 'host') n++;
  return n;
}

/** A hook refusing a request (no `this`: other hooks call it too). */
type Refusal = (request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => void;

/** Refuses a method a path has no route for, naming those it has: before any body is read. */
function refuseMethod(allow: readonly string[]): Refusal {
  const header = allow.join(', ');
  const message = `only ${allow.length === 1 ? `${allow[0]} is` : `${allow.slice(0, -1).join(', ')} and ${allow.at(-1)} are`} supported`;
  return (_request, reply, done) => {
    reply.header('allow', header);
    done(new ServiceError('method_not_allowed', message));
  };
}

/** The methods a GET or POST path answers (HEAD beside GET); none for a path of other methods alone. */
function allowedOf(methods: ReadonlySet<string>): string[] {
  const allow = methods.has('GET') ? ['GET', 'HEAD'] : [];
  if (methods.has('POST')) allow.push('POST');
  return allow;
}

/** With CORS on, an OPTIONS that is no preflight: refused like any other method (`refusals` by path), not with the CORS plugin's text. */
function refusePlainOptions(refusals: ReadonlyMap<string, Refusal>): onRequestHookHandler {
  return (request, reply, done) => {
    if (request.method !== 'OPTIONS' || (request.headers.origin !== undefined && request.headers['access-control-request-method'] !== undefined)) {
      done();
      return;
    }
    const refuse = request.is404 ? undefined : refusals.get(request.routeOptions.url ?? '');
    if (refuse === undefined) done(new ServiceError('not_found', 'no such route'));
    else refuse(request, reply, done);
  };
}

/** Creates the application, ready to listen. */
export async function buildServer(deps: ServerDeps): Promise<FastifyInstance> {
  const keys = new ApiKeyVerifier(deps.store);
  const refusals = deps.refusals ?? new MemoryRateLimiter(SETTINGS.refusedRateBurst.default, SETTINGS.refusedRatePerSecond.default);
  /** Every error answer: a refusal first spends its key's budget, or without a valid key its address's. */
  const answerError = async (err: unknown, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const refusal = toServiceError(err);
    if (refusal.status !== 500 && refusal.status !== 503) await identifyPresentedKey(keys, request).catch(() => undefined);
    const answer = await chargeRefusal(refusals, deps.limiter, request, refusal);
    errorHandler(answer === refusal ? err : answer, request, reply);
    return reply;
  };
  /** Set once the access log's hooks are added; frameworkErrors answers before any of them would run. */
  let unroutedLog: UnroutedLog | undefined;
  const app = Fastify({
    loggerInstance: deps.logger === false ? undefined : deps.logger,
    logger: deps.logger === false ? false : undefined,
    logController: new RequestLog(),
    genReqId: (req: IncomingMessage) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && SANE_REQUEST_ID.test(given) ? given : randomUUID();
    },
    // While draining, a request already on an open connection is served (with Connection: close)
    // rather than refused with a body outside the spec; new connections are refused anyway.
    return503OnClosing: false,
    ...limitOptions(deps.limits),
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 512 },
    // Malformed URLs are refused by the router before any hook runs: answer them with our error body too.
    frameworkErrors: (error: Error, request: FastifyRequest, reply: FastifyReply) => {
      // No route reads such a request, so the access log's routes' hooks never see it.
      unroutedLog?.(request, reply);
      baseHeaders(request, reply);
      void answerError(error, request, reply);
    },
  } as Parameters<typeof Fastify>[0]) as unknown as FastifyInstance;

  // Routed without a body: the service reads none, so no method gets a body parsed (or refused) before its 404 or 405.
  for (const m of REFUSED_METHODS) app.addHttpMethod(m, { hasBody: false, overrideExisting: true });
  // Before any route (the CORS plugin's among them) is added: each route keeps the handler it was added with.
  app.setErrorHandler(answerError);
  // Callback hooks rather than async ones on every request: no promise per request.
  app.addHook('onRequest', (request, reply, done) => {
    baseHeaders(request, reply);
    // Anything but a path (an absolute URL naming another host, an authority) is refused, not routed.
    if (request.url.charCodeAt(0) !== 47 && !ownTarget(request.url, request.headers.host)) {
      done(new ServiceError('invalid_request', 'the request target must be a path on this service', [{ message: 'target: an absolute URL must name this service (its Host)' }]));
      return;
    }
    // RFC 9112 section 3.2: an HTTP/1.1 request names its host once.
    if (request.raw.httpVersion === '1.1' && hostLines(request.raw.rawHeaders) !== 1) {
      done(new ServiceError('invalid_request', 'an HTTP/1.1 request must have exactly one Host header', [{ message: 'host: exactly one' }]));
      return;
    }
    const expectation = request.headers.expect;
    if (expectation !== undefined && expectation.trim().toLowerCase() !== '100-continue') {
      done(new ServiceError('expectation_failed', 'the only expectation understood is 100-continue', [{ message: 'expect: 100-continue or none' }]));
      return;
    }
    done();
  });
  // Gates are chosen per route once, from the route's path: every spelling routed to it passes them.
  const apiPrefix = `${deps.basePath}/`;
  const filesPrefix = `${deps.basePath}/files/`;
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith(apiPrefix) || route.url.startsWith(filesPrefix)) return;
    // A new array: the HEAD route is cloned from these options and gets its own onRoute call.
    route.onRequest = [jsonGate, ...hooksOf(route.onRequest)];
  });
  /** Each GET or POST path's refusal of the methods it does not answer (filled once every route is added). */
  const methodRefusals = new Map<string, Refusal>();
  const cors = deps.corsOrigins !== undefined && deps.corsOrigins.length > 0;
  if (cors) {
    app.addHook('onRequest', refusePlainOptions(methodRefusals));
    await app.register(fastifyCors, {
      origin: [...deps.corsOrigins!],
      methods: ['GET', 'HEAD'],
      allowedHeaders: ['Authorization', 'If-None-Match', 'X-Request-Id'],
      exposedHeaders: ['ETag', 'Link', 'X-Request-Id', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After'],
      maxAge: 600,
    });
  }
  // Every GET or POST path, the plugins' included, answers every other method with 405 and Allow, not 404.
  const routedMethods = new Map<string, Set<string>>();
  app.addHook('onRoute', (route) => {
    let methods = routedMethods.get(route.url);
    if (methods === undefined) routedMethods.set(route.url, (methods = new Set()));
    for (const m of Array.isArray(route.method) ? route.method : [route.method]) methods.add(m);
  });
  if (deps.accessLog !== false) {
    const accessLog = new AccessLogWriter(deps.store, deps.logger === false ? undefined : app.log, deps.accessLog);
    unroutedLog = accessLogHook(app, deps.basePath, accessLog);
    // The store catches the per-record table up in the background, where no caller sees a throw.
    deps.store.onAccessLogIndexFailure(({ err, batch }) =>
      app.log.error({ err, batch }, batch === undefined ? 'access log catch-up failed; batches it could not cover stay flagged for the next one' : 'access log catch-up failed for one batch; it stays flagged, the others were caught up'),
    );
    // Runs before the service closes the store: what is queued is written first.
    app.addHook('onClose', async () => accessLog.close());
  }
  app.setNotFoundHandler(async () => {
    throw new ServiceError('not_found', 'no such route');
  });

  const secret = await deps.store.secret();
  const routeDeps = {
    app,
    access: { store: deps.store, limiter: deps.limiter, keys, files: deps.files, gzipLevel: deps.ingest?.gzipLevel, ingestPool: deps.ingest?.pool },
    basePath: deps.basePath,
    files: deps.files,
    cacheControl: deps.cacheControl,
    secret,
    answers: deps.answers ?? new AnswerCache(SETTINGS.answerCacheMb.default * 1024 * 1024),
  };
  companyDetailsRoute(routeDeps);
  companiesListRoute(routeDeps);
  scenarioExecutionsRoute(routeDeps);
  alertRoute(routeDeps);
  alertsListRoute(routeDeps);
  alertsCountsRoute(routeDeps);
  eraseCustomerRoute(routeDeps);
  pushRecordsRoute(routeDeps, deps.ingest?.maxBytes ?? SETTINGS.maxImportBytes.default);
  // Long polls of the change feed end as the server starts closing, not at the end of the grace period.
  const closing = new AbortController();
  // Not a preClose hook: any such hook defers the listening socket's close by a turn, so a new
  // connection could still be accepted; this runs as fastify closes the socket.
  const closeServer = app.server.close.bind(app.server);
  app.server.close = (callback?: (err?: Error) => void) => {
    closing.abort();
    return closeServer(callback);
  };
  changesRoute({ ...routeDeps, closing: closing.signal });
  if (deps.localFiles !== undefined) fileDownloadRoute(app, deps.basePath, deps.localFiles);
  consoleRoutes(app, deps.basePath, deps.consoleDir);
  for (const plugin of deps.plugins ?? []) await plugin(app);
  await app.after();
  // With CORS on, the CORS plugin answers preflights in its onRequest hook, before these refuse them.
  for (const [url, methods] of [...routedMethods]) {
    const allow = allowedOf(methods);
    if (allow.length === 0) continue;
    const refuse = refuseMethod(allow);
    methodRefusals.set(url, refuse);
    app.route({
      method: METHODS.filter((m) => !allow.includes(m)),
      url,
      onRequest: refuse,
      handler: async () => {
        throw new ServiceError('method_not_allowed', 'method not allowed');
      },
    });
  }
  // Node answers an Expect it does not know with a bare 417 unless it is listened for: routed like any request, the onRequest hook refuses it with the contract's body.
  app.server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => app.server.emit('request', req, res));
  // Node hands CONNECT to 'connect' listeners (and closes the socket when there are none): answer it
  // like any other method, through the same routes and hooks, then close the connection.
  app.server.on('connect', (req: IncomingMessage, socket: Duplex) => {
    socket.on('error', () => socket.destroy());
    const res = new ServerResponse(req);
    res.shouldKeepAlive = false;
    res.assignSocket(socket as Parameters<ServerResponse['assignSocket']>[0]);
    res.on('finish', () => {
      res.detachSocket(socket as Parameters<ServerResponse['detachSocket']>[0]);
      socket.end();
    });
    app.routing(req, res);
  });
  return app;
}
