/** Builds the Fastify application: the read routes behind the access door, files, errors, headers. */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import fastifyCors from '@fastify/cors';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { ServiceError } from '../contract/error-codes.js';
import type { FileStore } from '../files/file-store.js';
import type { LocalFileStore } from '../files/local-file-store.js';
import type { Store } from '../store/store.js';
import { acceptsJson } from './accept.js';
import { ApiKeyVerifier } from './api-keys.js';
import { accessLogHook } from './access-log-hook.js';
import { AccessLogWriter, type AccessLogWriterOptions } from './access-log-writer.js';
import { chargeRefusal } from './access.js';
import { errorHandler, toServiceError } from './errors.js';
import { MemoryRateLimiter, type RateLimiter } from './rate-limit.js';
import { SETTINGS } from '../config/settings.js';
import { alertRoute } from './routes/alerts.js';
import { companyDetailsRoute } from './routes/company-details.js';
import { fileDownloadRoute } from './routes/file-download.js';
import { scenarioExecutionsRoute } from './routes/scenario-executions.js';
import { limitOptions, type ServerLimits } from './server-limits.js';

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
  /** Batching of the access log (every answer under the base path is recorded); false turns it off. */
  accessLog?: AccessLogWriterOptions | false;
  /** Origins allowed by CORS; CORS stays off when empty. */
  corsOrigins?: readonly string[];
}

const SANE_REQUEST_ID = /^[A-Za-z0-9._:@-]{1,128}$/;
const OTHER_METHODS = ['DELETE', 'PATCH', 'POST', 'PUT', 'OPTIONS'] as const;

/** Creates the application, ready to listen. */
export async function buildServer(deps: ServerDeps): Promise<FastifyInstance> {
  const refusals = deps.refusals ?? new MemoryRateLimiter(SETTINGS.refusedRateBurst.default, SETTINGS.refusedRatePerSecond.default);
  /** Every error answer: a refusal without a valid key first spends its address's budget. */
  const answerError = async (err: unknown, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const refusal = toServiceError(err);
    const answer = await chargeRefusal(refusals, request, refusal);
    errorHandler(answer === refusal ? err : answer, request, reply);
    return reply;
  };
  const app = Fastify({
    loggerInstance: deps.logger === false ? undefined : deps.logger,
    logger: deps.logger === false ? false : undefined,
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
      reply.header('x-request-id', request.id);
      void answerError(error, request, reply);
    },
  } as Parameters<typeof Fastify>[0]) as unknown as FastifyInstance;

  // Callback hooks rather than async ones on every request: no promise per request.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
    if (request.url.startsWith(`${deps.basePath}/`)) {
      // JSON (and file downloads, which set a stricter one): nothing in them may run or be framed.
      reply.header('content-security-policy', "default-src 'none'; frame-ancestors 'none'");
      if (!request.url.startsWith(`${deps.basePath}/files/`) && !acceptsJson(request.headers.accept)) {
        done(new ServiceError('not_acceptable', 'this service answers application/json only'));
        return;
      }
    }
    done();
  });
  const cors = deps.corsOrigins !== undefined && deps.corsOrigins.length > 0;
  if (cors) {
    await app.register(fastifyCors, {
      origin: [...deps.corsOrigins!],
      methods: ['GET', 'HEAD'],
      allowedHeaders: ['Authorization', 'If-None-Match', 'X-Request-Id'],
      exposedHeaders: ['ETag', 'Link', 'X-Request-Id', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After'],
      maxAge: 600,
    });
  }
  // Every GET path, the plugins' included, answers other methods with 405 and Allow, not 404.
  const paths = new Set<string>();
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (methods.includes('GET')) paths.add(route.url);
  });
  if (deps.accessLog !== false) {
    const accessLog = new AccessLogWriter(deps.store, deps.logger === false ? undefined : app.log, deps.accessLog);
    accessLogHook(app, deps.basePath, accessLog);
    // The store catches the per-record table up in the background, where no caller sees a throw.
    deps.store.onAccessLogIndexFailure(({ err, batch }) =>
      app.log.error({ err, batch }, batch === undefined ? 'access log catch-up failed; batches it could not cover stay flagged for the next one' : 'access log catch-up failed for one batch; it stays flagged, the others were caught up'),
    );
    // Runs before the service closes the store: what is queued is written first.
    app.addHook('onClose', async () => accessLog.close());
  }
  app.setErrorHandler(answerError);
  app.setNotFoundHandler(async () => {
    throw new ServiceError('not_found', 'no such route');
  });

  const secret = await deps.store.secret();
  const routeDeps = {
    app,
    access: { store: deps.store, limiter: deps.limiter, keys: new ApiKeyVerifier(deps.store) },
    basePath: deps.basePath,
    files: deps.files,
    cacheControl: deps.cacheControl,
    secret,
  };
  companyDetailsRoute(routeDeps);
  scenarioExecutionsRoute(routeDeps);
  alertRoute(routeDeps);
  if (deps.localFiles !== undefined) fileDownloadRoute(app, deps.basePath, deps.localFiles);
  for (const plugin of deps.plugins ?? []) await plugin(app);
  // With CORS on, OPTIONS is the preflight's, answered by the CORS plugin.
  const refused = cors ? OTHER_METHODS.filter((m) => m !== 'OPTIONS') : [...OTHER_METHODS];
  await app.after();
  for (const url of [...paths]) {
    app.route({
      method: refused,
      url,
      handler: async (_request, reply) => {
        reply.header('allow', 'GET, HEAD');
        throw new ServiceError('method_not_allowed', 'only GET and HEAD are supported');
      },
    });
  }
  return app;
}
