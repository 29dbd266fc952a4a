/**
 * Prometheus metrics of one service instance. Each instance has its own registry (never
 * prom-client's global one), so several servers can live in one process, as tests build them.
 * Names and labels are listed in docs/operations.md.
 */
import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import { CellHistogram, type HistogramCell } from './cell-histogram.js';
import { PairCounter } from './pair-counter.js';
import type { ListName, ListPageCacheObserver } from '../store/list-page-cache.js';
import type { Store } from '../store/store.js';
import type { StoreObserver } from '../store/timed-store.js';
import type { CutReason } from './connection-guard.js';
import type { RateDecision, RateLimiter } from './rate-limit.js';
import type { AnswerOutcome } from './answer-cache.js';
import type { RecordKind } from '../wire/redaction.js';

/** The instruments of one service instance. */
export interface Metrics {
  registry: Registry;
  httpRequests: Counter<'route' | 'method' | 'status'>;
  httpDuration: CellHistogram<RouteLabel>;
  storeDuration: CellHistogram<'operation' | 'outcome'>;
  rateLimitRejections: Counter;
  rateLimiterFailOpen: Counter;
  accessLogIndexFailures: Counter<'scope'>;
  listPageCache: PairCounter<'list', 'outcome'>;
  answerCache: PairCounter<'kind', 'outcome'>;
  connectionsCut: Counter<'reason'>;
}

/** Connections of a pool: open, idle, callers waiting for one. */
type PoolCounts = { total: number; idle: number; waiting: number };

/** A source of pool counts: PostgresStore has one, SQLite has no pool. */
export interface PoolStatsSource {
  poolStats(): PoolCounts;
  /** The read replica's pool, when reads go to one. */
  replicaPoolStats?(): PoolCounts | undefined;
}

/** Routes without a pattern (no route matched) share one label value, so raw URLs never become labels. */
const UNMATCHED = 'unmatched';

/** Creates a registry with the service's instruments and Node's process metrics. */
export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const httpDuration = new CellHistogram<'route' | 'method' | 'status'>(
    'crs_http_request_duration_seconds',
    'time from receiving a request to finishing its response, by route pattern, method and status code',
    [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  );
  registry.registerMetric(httpDuration.asMetric());
  const storeDuration = new CellHistogram<'operation' | 'outcome'>(
    'crs_store_query_duration_seconds',
    'time of one store call, by operation (store method) and outcome (ok or error)',
    [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5],
  );
  registry.registerMetric(storeDuration.asMetric());
  return {
    registry,
    // Read from the duration histogram's counts when scraped: one labelled observation per request, not two.
    httpRequests: new Counter({
      name: 'crs_http_requests_total',
      help: 'HTTP requests answered, by route pattern, method and status code',
      labelNames: ['route', 'method', 'status'] as const,
      registers,
      collect() {
        this.reset();
        for (const { labels, count } of httpDuration.counts()) this.inc(labels, count);
      },
    }),
    httpDuration,
    storeDuration,
    rateLimitRejections: new Counter({
      name: 'crs_rate_limit_rejections_total',
      help: 'requests refused with 429: the API key, or the client address for refused answers, had no tokens left',
      registers,
    }),
    rateLimiterFailOpen: new Counter({
      name: 'crs_rate_limiter_fail_open_total',
      help: 'requests allowed without a rate limit check because Redis did not answer',
      registers,
    }),
    accessLogIndexFailures: zeroed(
      new Counter({
        name: 'crs_access_log_index_failures_total',
        help: 'failed catch-ups of the access log per-record table: of all waiting batches at once (scope catch_up), or of one batch (scope batch)',
        labelNames: ['scope'] as const,
        registers,
      }),
      'scope',
      INDEX_FAILURE_SCOPES,
    ),
    listPageCache: new PairCounter({
      name: 'crs_list_page_cache_total',
      help: 'list pages asked of the page cache, by list (alerts, companies, executions, alert-counts) and outcome (hit; miss; stale: the project changed since it was read)',
      labelNames: ['list', 'outcome'] as const,
      registers,
    }).zero(LISTS, CACHE_OUTCOMES),
    answerCache: new PairCounter({
      name: 'crs_answer_cache_total',
      help: 'company and alert reads by id, by kind (company, alert) and outcome (hit: the kept answer sent; miss: none kept; stale: the record or its signed URLs changed since it was kept)',
      labelNames: ['kind', 'outcome'] as const,
      registers,
    }).zero(ANSWER_KINDS, CACHE_OUTCOMES),
    connectionsCut: zeroed(
      new Counter({
        name: 'crs_connections_cut_total',
        help: 'connections refused or closed early, by reason: per_address (past MAX_CONNECTIONS_PER_ADDRESS), pipelined (too many requests queued), stalled (WRITE_STALL_TIMEOUT_MS), slow_reader_budget (SLOW_READER_MB)',
        labelNames: ['reason'] as const,
        registers,
      }),
      'reason',
      Object.values(CUT_LABELS),
    ),
  };
}

// Every value of a counter's labels, shown at 0 until first counted (see PairCounter.zero); the
// records' keys name each value of the label's type once, so a value added there must be added here.
const LISTS = Object.keys({ alerts: 1, companies: 1, executions: 1, 'alert-counts': 1 } satisfies Record<ListName, 1>);
const CACHE_OUTCOMES = Object.keys({ hit: 1, miss: 1, stale: 1 } satisfies Record<AnswerOutcome, 1>);
const ANSWER_KINDS = ['company', 'alert'] as const satisfies readonly RecordKind[];
const INDEX_FAILURE_SCOPES = ['catch_up', 'batch'] as const;

/** `counter` with each of `values` of its one label at 0. */
function zeroed<L extends string>(counter: Counter<L>, label: L, values: readonly string[]): Counter<L> {
  for (const value of values) counter.inc({ [label]: value } as Record<L, string>, 0);
  return counter;
}

const CUT_LABELS: Record<CutReason, string> = { perAddress: 'per_address', pipelined: 'pipelined', stalled: 'stalled', slowReaderBudget: 'slow_reader_budget' };

/** Counts the connections the connection guard refuses or closes. */
export function countCuts(metrics: Metrics): (reason: CutReason) => void {
  return (reason) => metrics.connectionsCut.inc({ reason: CUT_LABELS[reason] });
}

type RouteLabel = 'route' | 'method' | 'status';

/** Finds the cell of a route pattern, method and status: three map lookups, a cell made on first use. */
export function routeCells(histogram: CellHistogram<RouteLabel>): (route: string, method: string, status: number) => HistogramCell<RouteLabel> {
  const cells = new Map<string, Map<string, Map<number, HistogramCell<RouteLabel>>>>();
  return (route, method, status) => {
    let methods = cells.get(route);
    if (methods === undefined) cells.set(route, (methods = new Map()));
    let statuses = methods.get(method);
    if (statuses === undefined) methods.set(method, (statuses = new Map()));
    let cell = statuses.get(status);
    if (cell === undefined) statuses.set(status, (cell = histogram.cell({ route, method, status: String(status) })));
    return cell;
  };
}

/** A plugin recording every answered request by its route pattern and status code. */
export function requestMetrics(metrics: Metrics): (app: FastifyInstance) => void {
  return (app) => {
    const cellOf = routeCells(metrics.httpDuration);
    app.addHook('onResponse', (request, reply, done) => {
      cellOf(request.routeOptions.url ?? UNMATCHED, request.method, reply.statusCode).observe(reply.elapsedTime / 1000);
      done();
    });
  };
}

/** The observer that feeds store call timings (src/store/timed-store.ts) into the histogram. */
export function storeObserver(metrics: Metrics): StoreObserver {
  const cells = new Map<string, { ok?: HistogramCell<'operation' | 'outcome'>; error?: HistogramCell<'operation' | 'outcome'> }>();
  return (operation, outcome, seconds) => {
    let ofOperation = cells.get(operation);
    if (ofOperation === undefined) cells.set(operation, (ofOperation = {}));
    (ofOperation[outcome] ??= metrics.storeDuration.cell({ operation, outcome })).observe(seconds);
  };
}

/** The observer that counts list page cache outcomes (src/store/list-page-cache.ts). */
export function listPageCacheObserver(metrics: Metrics): ListPageCacheObserver {
  return (list, outcome) => metrics.listPageCache.inc(list, outcome);
}

/** Counts each failed catch-up of the store's access log per-record table. */
export function countIndexFailures(store: Pick<Store, 'onAccessLogIndexFailure'>, metrics: Metrics): void {
  store.onAccessLogIndexFailure(({ batch }) => metrics.accessLogIndexFailures.inc({ scope: INDEX_FAILURE_SCOPES[batch === undefined ? 0 : 1] }));
}

/** Wraps a limiter so each refusal is counted. */
export function countRejections(limiter: RateLimiter, metrics: Metrics): RateLimiter {
  return {
    async take(key: string): Promise<RateDecision> {
      const d = await limiter.take(key);
      if (!d.allowed) metrics.rateLimitRejections.inc();
      return d;
    },
    charge: (key, tokens) => limiter.charge(key, tokens),
    close: () => limiter.close(),
  };
}

/** True when a store reports its pool (PostgreSQL). */
export function hasPoolStats(store: object): store is PoolStatsSource {
  return typeof (store as Partial<PoolStatsSource>).poolStats === 'function';
}

/** Adds gauges read from the pool at each scrape: open, idle, and callers waiting for a connection. */
export function watchPool(metrics: Metrics, source: PoolStatsSource): void {
  const gauge = (name: string, help: string, pick: (s: ReturnType<PoolStatsSource['poolStats']>) => number): void => {
    new Gauge({
      name,
      help,
      registers: [metrics.registry],
      collect() {
        this.set(pick(source.poolStats()));
      },
    });
  };
  gauge('crs_pg_pool_connections', 'PostgreSQL connections open in the pool', (s) => s.total);
  gauge('crs_pg_pool_idle_connections', 'PostgreSQL connections open and idle in the pool', (s) => s.idle);
  gauge('crs_pg_pool_waiting_requests', 'store calls waiting for a free PostgreSQL connection', (s) => s.waiting);
  if (source.replicaPoolStats?.() === undefined) return;
  const replica = (): PoolCounts => source.replicaPoolStats?.() ?? { total: 0, idle: 0, waiting: 0 };
  const replicaGauge = (name: string, help: string, pick: (s: PoolCounts) => number): void => {
    new Gauge({ name, help, registers: [metrics.registry], collect() { this.set(pick(replica())); } });
  };
  replicaGauge('crs_pg_replica_pool_connections', 'connections open in the read replica pool (DATABASE_READ_URL)', (s) => s.total);
  replicaGauge('crs_pg_replica_pool_idle_connections', 'connections open and idle in the read replica pool', (s) => s.idle);
  replicaGauge('crs_pg_replica_pool_waiting_requests', 'reads waiting for a free read replica connection', (s) => s.waiting);
}
