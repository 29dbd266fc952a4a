/** Assembles the running service from a configuration: store, file store, limiters, logger, metrics, then the server from those parts. */
import { storeOptionsOf } from '../config/load-config.js';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import pino, { type Logger } from 'pino';
import type { Config } from '../config/settings.js';
import type { FileStore } from '../files/file-store.js';
import { LocalFileStore } from '../files/local-file-store.js';
import { openStore, sqlitePath } from '../store/open-store.js';
import type { Store } from '../store/store.js';
import { timedStore } from '../store/timed-store.js';
import { startAccessLogRetention } from '../access-log/retention.js';
import { healthRoutes } from '../http/health.js';
import { metricsRoute, startMetricsServer } from '../http/metrics-exposure.js';
import { countIndexFailures, countRejections, createMetrics, hasPoolStats, requestMetrics, storeObserver, watchPool, type Metrics } from '../http/metrics.js';
import { MemoryRateLimiter, type RateLimiter } from '../http/rate-limit.js';
import { serverLimitsOf } from '../http/server-limits.js';
import { REDACTED, redactLogLine } from '../http/log-redaction.js';
import { closeGracefully } from '../http/shutdown.js';
import { openApiRoutes } from '../http/routes/openapi.js';
import { buildServer } from '../http/server.js';

/** A started service and how to stop it. */
export interface Service {
  app: FastifyInstance;
  store: Store;
  url: string;
  /** Where /metrics is served when METRICS_PORT is set. */
  metricsUrl?: string;
  /** Stops accepting, drains requests in flight (at most SHUTDOWN_GRACE_MS), then closes limiter and store. */
  close(): Promise<void>;
}

/** The directory local document files live in for a configuration. */
export function filesDirOf(config: Config): string {
  if (config.filesDir !== undefined) return resolve(config.filesDir);
  if (/^postgres(ql)?:\/\//.test(config.databaseUrl)) return resolve('data/files');
  return join(dirname(resolve(sqlitePath(config.databaseUrl))), 'files');
}

/** The external origin used in signed URLs. */
export function publicUrlOf(config: Config): string {
  return config.publicUrl ?? `http://localhost:${config.port}`;
}

/** The document file store a configuration names. */
export async function fileStoreOf(config: Config, secret: Buffer): Promise<{ files: FileStore; local?: LocalFileStore }> {
  if (config.fileStore === 's3') {
    if (config.s3Bucket === undefined) throw new Error('FILE_STORE=s3 needs S3_BUCKET');
    const credentials =
      config.s3AccessKeyId !== undefined && config.s3SecretAccessKey !== undefined
        ? { accessKeyId: config.s3AccessKeyId, secretAccessKey: config.s3SecretAccessKey }
        : undefined;
    // Loaded only when used: the AWS SDK is a large part of start-up otherwise.
    const { S3FileStore } = await import('../files/s3-file-store.js');
    return {
      files: new S3FileStore({
        bucket: config.s3Bucket,
        region: config.s3Region,
        endpoint: config.s3Endpoint,
        forcePathStyle: config.s3ForcePathStyle,
        credentials,
        ttlSeconds: config.signedUrlTtl,
      }),
    };
  }
  const local = new LocalFileStore({
    dir: filesDirOf(config),
    secret,
    publicBaseUrl: publicUrlOf(config),
    basePath: config.basePath,
    ttlSeconds: config.signedUrlTtl,
  });
  return { files: local, local };
}

/** This package's version (package.json sits two levels up from both src/app and dist/app). */
export function packageVersion(): string {
  return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
}

/**
 * The service's logger: JSON lines, credentials redacted: the headers that carry them, and in the
 * written line any API key and any secret-looking query parameter (a key put in a URL, a file
 * URL's signature), whichever field (request URL, error message) holds it.
 */
export function createLogger(config: Config, destination?: pino.DestinationStream): Logger {
  const options = {
    level: config.logLevel,
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie', 'headers.authorization'], censor: REDACTED },
    hooks: { streamWrite: redactLogLine },
  };
  return destination === undefined ? pino(options) : pino(options, destination);
}

/** The rate limiter a configuration names: Redis when REDIS_URL is set, else this process's memory. */
export async function rateLimiterOf(config: Config, logger: Logger | false, metrics: Metrics): Promise<RateLimiter> {
  if (config.redisUrl === undefined) return new MemoryRateLimiter(config.rateLimitBurst, config.rateLimitPerSecond);
  const { openRedisRateLimiter } = await import('../http/redis-rate-limiter.js');
  return openRedisRateLimiter(config.redisUrl, config.rateLimitBurst, config.rateLimitPerSecond, {
    log: logger === false ? undefined : logger,
    failOpen: metrics.rateLimiterFailOpen,
  });
}

/** The budgets of refused answers per client address: like rateLimiterOf, in Redis (keys `crs:rl:addr:...`) when REDIS_URL is set. */
export async function refusalLimiterOf(config: Config, logger: Logger | false, metrics: Metrics): Promise<RateLimiter> {
  if (config.redisUrl === undefined) return new MemoryRateLimiter(config.refusedRateBurst, config.refusedRatePerSecond);
  const { openRedisRateLimiter } = await import('../http/redis-rate-limiter.js');
  return openRedisRateLimiter(config.redisUrl, config.refusedRateBurst, config.refusedRatePerSecond, {
    log: logger === false ? undefined : logger.child({ limiter: 'refused answers' }),
    failOpen: metrics.rateLimiterFailOpen,
  });
}

/** Opens everything a configuration names and starts listening. */
export async function startService(config: Config, options: { logger?: Logger | false } = {}): Promise<Service> {
  const logger = options.logger ?? createLogger(config);
  const metrics = createMetrics();
  const opened = await openStore(config.databaseUrl, { ...storeOptionsOf(config), readThread: true });
  if (hasPoolStats(opened)) watchPool(metrics, opened);
  countIndexFailures(opened, metrics);
  const store = timedStore(opened, storeObserver(metrics));
  const limiter = countRejections(await rateLimiterOf(config, logger, metrics), metrics);
  const refusals = countRejections(await refusalLimiterOf(config, logger, metrics), metrics);
  const { files, local } = await fileStoreOf(config, await store.secret());
  // A separate metrics port wins; the main port serves /metrics only behind a token.
  const metricsOnMain = config.metricsPort === undefined && config.metricsToken !== undefined;
  const app = await buildServer({
    store,
    limiter,
    refusals,
    files,
    localFiles: local,
    logger,
    basePath: config.basePath,
    cacheControl: config.cacheControl,
    limits: serverLimitsOf(config),
    corsOrigins: config.corsOrigins,
    accessLog: config.accessLog ? { flushMs: config.accessLogFlushMs } : false,
    plugins: [
      requestMetrics(metrics),
      healthRoutes(store),
      ...(metricsOnMain ? [metricsRoute(metrics, config.metricsToken!)] : []),
      openApiRoutes({ basePath: config.basePath, serverUrl: config.publicUrl, version: packageVersion(), fileRoute: local !== undefined }),
    ],
  });
  const retention =
    config.accessLogRetentionDays === undefined ? undefined : startAccessLogRetention(store, config.accessLogRetentionDays, logger === false ? undefined : logger);
  const address = await app.listen({ port: config.port, host: config.host });
  const metricsServer = config.metricsPort === undefined ? undefined : await startMetricsServer(metrics, config.host, config.metricsPort);
  let closing: Promise<void> | undefined;
  return {
    app,
    store,
    url: address,
    metricsUrl: metricsServer?.url,
    close() {
      // A second signal during the drain must not close the store under requests still running.
      closing ??= (async () => {
        await closeGracefully(app, config.shutdownGrace);
        await metricsServer?.close();
        await retention?.stop();
        await limiter.close();
        await refusals.close();
        await store.close();
      })();
      return closing;
    },
  };
}
