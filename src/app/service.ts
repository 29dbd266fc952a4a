/** Assembles the running service from a configuration: store, file store, limiters, logger, metrics, then the server from those parts. */
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { startAccessLogRetention } from '../access-log/retention.js';
import { storeOptionsOf } from '../config/load-config.js';
import { namedBySetting } from '../config/named-by-setting.js';
import type { Config } from '../config/settings.js';
import { healthRoutes } from '../http/health.js';
import { metricsRoute, startMetricsServer } from '../http/metrics-exposure.js';
import { AnswerCache } from '../http/answer-cache.js';
import { countCuts, countIndexFailures, countRejections, createMetrics, hasPoolStats, listPageCacheObserver, requestMetrics, storeObserver, watchPool } from '../http/metrics.js';
import { openApiRoutes } from '../http/routes/openapi.js';
import type { CutReason } from '../http/connection-guard.js';
import type { ServerLimits } from '../http/server-limits.js';
import { buildServer } from '../http/server.js';
import { closeGracefully } from '../http/shutdown.js';
import { openStore } from '../store/open-store.js';
import type { Store } from '../store/store.js';
import { withListPageCache } from '../store/list-page-cache.js';
import { timedStore } from '../store/timed-store.js';
import { fileStoreOf } from './file-stores.js';
import { createLogger } from './logger.js';
import { CONSOLE_DIR, packageVersion } from './package-files.js';
import { rateLimiterOf, refusalLimiterOf } from './rate-limiters.js';
import { StoreOutageLog } from './store-outage-log.js';

/** How long a push worker waits for the next push before it ends: pushes come in runs, and a thread's start costs its module's loading. */
const PUSH_WORKER_IDLE_MS = 60_000;

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

/** The limits a configuration sets. */
function serverLimitsOf(config: Config, onCut?: (reason: CutReason) => void): ServerLimits {
  return {
    requestTimeout: config.requestTimeout,
    headersTimeout: config.headersTimeout,
    keepAliveTimeout: config.keepAliveTimeout,
    maxHeaderBytes: config.maxHeaderBytes,
    maxConnectionsPerAddress: config.maxConnectionsPerAddress,
    writeStallTimeout: config.writeStallTimeout,
    slowReaderBytes: config.slowReaderMb * 1024 * 1024,
    onCut,
  };
}

/** Opens everything a configuration names and starts listening. */
export async function startService(config: Config, options: { logger?: Logger | false } = {}): Promise<Service> {
  const logger = options.logger ?? createLogger(config);
  const metrics = createMetrics();
  // Only the serving store reads from a replica: the CLI's commands read what they just wrote.
  const opened = await openStore(config.databaseUrl, { ...storeOptionsOf(config), readThread: true, readUrl: config.databaseReadUrl });
  if (hasPoolStats(opened)) watchPool(metrics, opened);
  countIndexFailures(opened, metrics);
  const observer = logger === false ? storeObserver(metrics) : new StoreOutageLog(logger).observing(storeObserver(metrics));
  // Timed beneath the page cache: the store histogram holds store calls, not pages the cache answered.
  const store = withListPageCache(timedStore(opened, observer), config.listPageCacheMb * 1024 * 1024, listPageCacheObserver(metrics));
  const limiter = countRejections(await rateLimiterOf(config, logger, metrics), metrics);
  const refusals = countRejections(await refusalLimiterOf(config, logger, metrics), metrics);
  const { files, local } = await fileStoreOf(config, await store.secret());
  // Its module loads only where pushes get threads; the threads start with the first push.
  const ingestPool = config.pushWorkers > 0 ? new (await import('../ingest/import-pool.js')).ImportPool(config.pushWorkers, { idleMs: PUSH_WORKER_IDLE_MS }) : undefined;
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
    limits: serverLimitsOf(config, countCuts(metrics)),
    corsOrigins: config.corsOrigins,
    consoleDir: CONSOLE_DIR,
    accessLog: config.accessLog ? { flushMs: config.accessLogFlushMs } : false,
    answers: new AnswerCache(config.answerCacheMb * 1024 * 1024, (kind, outcome) => metrics.answerCache.inc(kind, outcome)),
    ingest: { maxBytes: config.maxImportBytes, gzipLevel: config.gzipLevel === 0 ? null : config.gzipLevel, pool: ingestPool },
    plugins: [
      requestMetrics(metrics),
      healthRoutes(store),
      ...(metricsOnMain ? [metricsRoute(metrics, config.metricsToken!)] : []),
      openApiRoutes({ basePath: config.basePath, serverUrl: config.publicUrl, version: packageVersion(), fileRoute: local !== undefined }),
    ],
  });
  const retention =
    config.accessLogRetentionDays === undefined ? undefined : startAccessLogRetention(store, config.accessLogRetentionDays, logger === false ? undefined : logger);
  /** What the server stands on, released once it is closed. */
  const release = async (): Promise<void> => {
    await retention?.stop();
    await ingestPool?.close();
    await limiter.close();
    await refusals.close();
    await store.close();
  };
  let address: string;
  let metricsServer: Awaited<ReturnType<typeof startMetricsServer>> | undefined;
  try {
    address = await namedBySetting('HOST, PORT', app.listen({ port: config.port, host: config.host }));
    metricsServer = config.metricsPort === undefined ? undefined : await namedBySetting('HOST, METRICS_PORT', startMetricsServer(metrics, config.host, config.metricsPort));
  } catch (err) {
    // A port that cannot be had ends the start: a half-started replica would hold its main port open without metrics, never exiting.
    await app.close();
    await release();
    throw err;
  }
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
        await release();
      })();
      return closing;
    },
  };
}
