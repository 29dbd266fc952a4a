/**
 * Every setting of the service, once: its environment variable, flag, default, parser and
 * whether it is a secret. The CLI derives its flags, `--print-config` and docs/configuration.md
 * from this table, so a setting cannot exist in one place and be missing from another.
 */

/** Parses a raw value or throws an Error whose message says what was expected. */
type Parse<T> = (raw: string) => T;

export interface Setting<T> {
  env: string;
  flag: string;
  description: string;
  default: T;
  parse: Parse<T>;
  secret?: boolean;
}

const int =
  (min: number, max: number): Parse<number> =>
  (raw) => {
    if (!/^-?\d+$/.test(raw.trim())) throw new Error(`must be a whole number from ${min} to ${max}`);
    const n = Number(raw);
    if (n < min || n > max) throw new Error(`must be a whole number from ${min} to ${max}`);
    return n;
  };
const num =
  (min: number, max: number): Parse<number> =>
  (raw) => {
    const n = Number(raw);
    if (raw.trim() === '' || !Number.isFinite(n) || n < min || n > max) throw new Error(`must be a number from ${min} to ${max}`);
    return n;
  };
const str: Parse<string> = (raw) => raw;
const optional: Parse<string | undefined> = (raw) => (raw === '' ? undefined : raw);
const oneOf =
  <T extends string>(...values: T[]): Parse<T> =>
  (raw) => {
    if (!(values as string[]).includes(raw)) throw new Error(`must be one of: ${values.join(', ')}`);
    return raw as T;
  };
const basePath: Parse<string> = (raw) => {
  if (raw === '' || raw === '/') return '';
  if (!/^(\/[A-Za-z0-9._~-]+)+$/.test(raw)) throw new Error('must be a path like /v1 (no trailing slash)');
  return raw;
};
const url: Parse<string | undefined> = (raw) => {
  if (raw === '') return undefined;
  try {
    const u = new URL(raw);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error();
  } catch {
    throw new Error('must be an http(s) URL');
  }
  return raw.replace(/\/+$/, '');
};
/** A postgres:// URL that parses; the message never repeats the value (it may hold a password). */
const postgresUrl = (raw: string): string => {
  if (!/^postgres(ql)?:\/\//.test(raw)) throw new Error('must be a postgres:// URL');
  try {
    new URL(raw);
  } catch {
    throw new Error('is not a valid postgres:// URL');
  }
  return raw;
};
/**
 * A SQLite path (bare, sqlite: or file:) or a postgres:// URL: any other scheme, or a postgres URL
 * that does not parse, would otherwise open a SQLite file named after the mistyped URL.
 */
const databaseUrl: Parse<string> = (raw) => {
  if (raw.trim() === '') throw new Error('must be a SQLite file path or a postgres:// URL');
  if (/^postgres(ql)?:/i.test(raw)) return postgresUrl(raw);
  // Two letters at least, so that a drive letter (C:) stays a path.
  const scheme = /^([a-z][a-z0-9+.-]+):/i.exec(raw)?.[1]?.toLowerCase();
  if (scheme !== undefined && scheme !== 'sqlite' && scheme !== 'file') throw new Error('must be a SQLite file path (or sqlite:PATH) or a postgres:// URL');
  return raw;
};
/** A redis:// or rediss:// URL; anything else made the rate limiter fail open for good, or the start fail without naming the setting. */
const redisUrl: Parse<string | undefined> = (raw) => {
  if (raw === '') return undefined;
  let protocol: string;
  try {
    protocol = new URL(raw).protocol;
  } catch {
    throw new Error('must be a redis:// or rediss:// URL');
  }
  if (protocol !== 'redis:' && protocol !== 'rediss:') throw new Error('must be a redis:// or rediss:// URL');
  return raw;
};
const list: Parse<string[]> = (raw) =>
  raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');

function setting<T>(s: Setting<T>): Setting<T> {
  return s;
}

/** The settings table. */
export const SETTINGS = {
  databaseUrl: setting({
    env: 'DATABASE_URL',
    flag: '--db <url>',
    description: 'SQLite file path (or sqlite:PATH), or a postgres:// URL',
    default: './data/compliance.db',
    parse: databaseUrl,
    secret: true,
  }),
  databaseReadUrl: setting<string | undefined>({
    env: 'DATABASE_READ_URL',
    flag: '--db-read <url>',
    description: 'postgres:// URL of a streaming replica of DATABASE_URL for the reads of `serve`/`start` (records, pages, counts, search, the change feed); writes, keys and the access log stay on DATABASE_URL, and reads go there too while the replica is down',
    default: undefined,
    parse: (raw) => (raw === '' ? undefined : postgresUrl(raw)),
    secret: true,
  }),
  host: setting({ env: 'HOST', flag: '--host <host>', description: 'address to listen on', default: '127.0.0.1', parse: str }),
  port: setting({ env: 'PORT', flag: '--port <port>', description: 'HTTP port', default: 8080, parse: int(0, 65535) }),
  basePath: setting({ env: 'BASE_PATH', flag: '--base-path <path>', description: 'path prefix of the API', default: '/v1', parse: basePath }),
  publicUrl: setting<string | undefined>({
    env: 'PUBLIC_URL',
    flag: '--public-url <url>',
    description: 'external origin of the service, used in signed file URLs (default http://localhost:PORT)',
    default: undefined,
    parse: url,
  }),
  cacheControl: setting({
    env: 'CACHE_CONTROL',
    flag: '--cache-control <value>',
    description: 'Cache-Control header of record responses',
    default: 'no-store',
    parse: str,
  }),
  fileStore: setting({ env: 'FILE_STORE', flag: '--file-store <kind>', description: 'where document files live: local or s3', default: 'local' as 'local' | 's3', parse: oneOf('local', 's3') }),
  filesDir: setting<string | undefined>({
    env: 'FILES_DIR',
    flag: '--files-dir <dir>',
    description: 'local document file directory, one subdirectory per project (default: files/ beside the SQLite file, or ./data/files)',
    default: undefined,
    parse: optional,
  }),
  signedUrlTtl: setting({ env: 'SIGNED_URL_TTL', flag: '--signed-url-ttl <seconds>', description: 'lifetime of signed document URLs', default: 900, parse: int(1, 7 * 24 * 3600) }),
  s3Endpoint: setting<string | undefined>({ env: 'S3_ENDPOINT', flag: '--s3-endpoint <url>', description: 'S3-compatible endpoint (empty for AWS)', default: undefined, parse: url }),
  s3Region: setting({ env: 'S3_REGION', flag: '--s3-region <region>', description: 'S3 region', default: 'us-east-1', parse: str }),
  s3Bucket: setting<string | undefined>({ env: 'S3_BUCKET', flag: '--s3-bucket <bucket>', description: 'S3 bucket of document files, each at the key <project>/<objectKey>', default: undefined, parse: optional }),
  s3AccessKeyId: setting<string | undefined>({ env: 'S3_ACCESS_KEY_ID', flag: '--s3-access-key-id <id>', description: 'S3 access key id', default: undefined, parse: optional, secret: true }),
  s3SecretAccessKey: setting<string | undefined>({ env: 'S3_SECRET_ACCESS_KEY', flag: '--s3-secret-access-key <secret>', description: 'S3 secret access key', default: undefined, parse: optional, secret: true }),
  s3ForcePathStyle: setting({ env: 'S3_FORCE_PATH_STYLE', flag: '--s3-force-path-style <bool>', description: 'path-style S3 addressing (MinIO and most S3-compatible stores)', default: true, parse: (raw) => oneOf('true', 'false')(raw) === 'true' }),
  rateLimitBurst: setting({ env: 'RATE_LIMIT_BURST', flag: '--rate-limit-burst <n>', description: 'token bucket size per API key', default: 2000, parse: int(1, 1e9) }),
  rateLimitPerSecond: setting({ env: 'RATE_LIMIT_PER_SECOND', flag: '--rate-limit-per-second <n>', description: 'token refill rate per API key', default: 1000, parse: num(0.001, 1e9) }),
  refusedRateBurst: setting({
    env: 'REFUSED_RATE_BURST',
    flag: '--refused-rate-burst <n>',
    description: 'refused answers (no valid key, or no route) a client address may get before 429',
    default: 100,
    parse: int(1, 1e9),
  }),
  refusedRatePerSecond: setting({
    env: 'REFUSED_RATE_PER_SECOND',
    flag: '--refused-rate-per-second <n>',
    description: 'refill rate of the refused-answer budget per client address',
    default: 1,
    parse: num(0.001, 1e9),
  }),
  redisUrl: setting<string | undefined>({ env: 'REDIS_URL', flag: '--redis-url <url>', description: 'redis:// or rediss:// URL of the Redis for rate limits shared across replicas (in-process when unset)', default: undefined, parse: redisUrl, secret: true }),
  corsOrigins: setting<string[]>({ env: 'CORS_ORIGINS', flag: '--cors-origins <list>', description: 'comma-separated origins allowed by CORS (off when empty)', default: [], parse: list }),
  logLevel: setting({ env: 'LOG_LEVEL', flag: '--log-level <level>', description: 'pino log level', default: 'info' as string, parse: oneOf('fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent') }),
  pgPoolSize: setting({ env: 'PG_POOL_SIZE', flag: '--pg-pool-size <n>', description: 'PostgreSQL connections per replica', default: 10, parse: int(1, 1000) }),
  pgStatementTimeout: setting({ env: 'PG_STATEMENT_TIMEOUT_MS', flag: '--pg-statement-timeout <ms>', description: 'PostgreSQL statement timeout (TLS: sslmode in DATABASE_URL)', default: 5000, parse: int(1, 3_600_000) }),
  metricsPort: setting<number | undefined>({ env: 'METRICS_PORT', flag: '--metrics-port <port>', description: 'serve /metrics on this separate port (else on the main port behind METRICS_TOKEN)', default: undefined, parse: (raw) => (raw === '' ? undefined : int(0, 65535)(raw)) }),
  metricsToken: setting<string | undefined>({ env: 'METRICS_TOKEN', flag: '--metrics-token <token>', description: 'bearer token for /metrics on the main port (off when unset and no METRICS_PORT)', default: undefined, parse: optional, secret: true }),
  requestTimeout: setting({ env: 'REQUEST_TIMEOUT_MS', flag: '--request-timeout <ms>', description: 'longest a client may take to send a whole request', default: 10_000, parse: int(1, 600_000) }),
  headersTimeout: setting({ env: 'HEADERS_TIMEOUT_MS', flag: '--headers-timeout <ms>', description: 'longest a client may take to send its headers', default: 5_000, parse: int(1, 600_000) }),
  keepAliveTimeout: setting({ env: 'KEEP_ALIVE_TIMEOUT_MS', flag: '--keep-alive-timeout <ms>', description: 'idle keep-alive connection lifetime', default: 5_000, parse: int(1, 600_000) }),
  maxHeaderBytes: setting({ env: 'MAX_HEADER_BYTES', flag: '--max-header-bytes <n>', description: 'largest request line plus headers (431 past it)', default: 16_384, parse: int(1024, 1_048_576) }),
  maxConnectionsPerAddress: setting({
    env: 'MAX_CONNECTIONS_PER_ADDRESS',
    flag: '--max-connections-per-address <n>',
    description: 'open connections one client address may hold; one more is answered 503 and closed (0: no cap; behind a proxy every connection comes from the proxy)',
    default: 64,
    parse: int(0, 1_000_000),
  }),
  writeStallTimeout: setting({
    env: 'WRITE_STALL_TIMEOUT_MS',
    flag: '--write-stall-timeout <ms>',
    description: 'longest a client may take to accept the next 512 KiB of an answer before its connection is closed',
    default: 10_000,
    parse: int(1, 600_000),
  }),
  slowReaderMb: setting({
    env: 'SLOW_READER_MB',
    flag: '--slow-reader-mb <n>',
    description: 'memory all answers waiting on slow readers may hold together; past it the connections waiting longest are closed',
    default: 64,
    parse: int(1, 65_536),
  }),
  shutdownGrace: setting({ env: 'SHUTDOWN_GRACE_MS', flag: '--shutdown-grace <ms>', description: 'on SIGTERM, how long requests in flight may take to finish', default: 10_000, parse: int(0, 600_000) }),
  accessLog: setting({
    env: 'ACCESS_LOG',
    flag: '--access-log <on-or-off>',
    description: 'record every read and refused attempt in the store’s access log (off only to measure its cost or in development)',
    default: true,
    parse: (raw) => oneOf('on', 'off')(raw) === 'on',
  }),
  accessLogFlushMs: setting({
    env: 'ACCESS_LOG_FLUSH_MS',
    flag: '--access-log-flush <ms>',
    description: 'longest an access log entry waits in memory before it is written (at most 2000): what a SIGKILL can lose',
    default: 250,
    parse: int(10, 2000),
  }),
  accessLogRetentionDays: setting<number | undefined>({
    env: 'ACCESS_LOG_RETENTION_DAYS',
    flag: '--access-log-retention-days <days>',
    description: 'delete access log batches older than this many days, hourly (unset: keep forever)',
    default: undefined,
    parse: (raw) => (raw === '' ? undefined : int(1, 36_500)(raw)),
  }),
  maxRejects: setting({
    env: 'MAX_REJECTS',
    flag: '--max-rejects <n>',
    description: 'rejected lines an import tolerates; one more stops it (nothing from that line on is stored)',
    default: 10_000,
    parse: int(0, 1e9),
  }),
  listPageCacheMb: setting({
    env: 'LIST_PAGE_CACHE_MB',
    flag: '--list-page-cache-mb <n>',
    description: 'memory for alert, company and execution list pages, each served again while its project is unchanged (0 turns it off)',
    default: 64,
    parse: int(0, 65_536),
  }),
  answerCacheMb: setting({
    env: 'ANSWER_CACHE_MB',
    flag: '--answer-cache-mb <n>',
    description: 'memory for company and alert answers as sent, each served again while the record is unchanged (0 turns it off)',
    default: 64,
    parse: int(0, 65_536),
  }),
  maxImportBytes: setting({
    env: 'MAX_IMPORT_BYTES',
    flag: '--max-import-bytes <n>',
    description: 'largest body POST /records takes, counted after gzip decoding (413 past it, nothing stored)',
    default: 64 * 1024 * 1024,
    parse: int(1024, 2 ** 40),
  }),
  pushWorkers: setting({
    env: 'PUSH_WORKERS',
    flag: '--push-workers <n>',
    description: 'worker threads that parse, validate and compress the lines of POST /records, started when a push needs one (0: the serving thread does it, holding every read meanwhile)',
    default: 1,
    parse: int(0, 64),
  }),
  natsUrl: setting({ env: 'NATS_URL', flag: '--nats-url <url>', description: 'NATS server the `consume` command reads from (JetStream)', default: 'nats://127.0.0.1:4222', parse: str, secret: true }),
  natsStream: setting({ env: 'NATS_STREAM', flag: '--nats-stream <name>', description: 'JetStream stream carrying the envelopes, one per message', default: 'RECORDS', parse: str }),
  natsSubject: setting({ env: 'NATS_SUBJECT', flag: '--nats-subject <subject>', description: 'subject (wildcards allowed) the consumer takes from the stream', default: 'records.>', parse: str }),
  natsDurable: setting({ env: 'NATS_DURABLE', flag: '--nats-durable <name>', description: 'durable consumer name: where the stream is acknowledged up to, shared by every consuming process', default: 'compliance-read', parse: str }),
  natsDeadLetterSubject: setting({
    env: 'NATS_DEAD_LETTER_SUBJECT',
    flag: '--nats-dead-letter-subject <subject>',
    description: 'where a message that is no valid envelope is published, with the reject reason, before it is acknowledged',
    default: 'records-dead-letter',
    parse: str,
  }),
  natsAckWait: setting({
    env: 'NATS_ACK_WAIT_MS',
    flag: '--nats-ack-wait <ms>',
    description: 'how long a delivered message may stay unacknowledged before it is delivered again (a consumer killed mid-batch); longer than a batch takes to commit',
    default: 30_000,
    parse: int(1000, 3_600_000),
  }),
  natsBatch: setting({ env: 'NATS_BATCH', flag: '--nats-batch <n>', description: 'messages fetched, committed in one transaction and then acknowledged', default: 500, parse: int(1, 10_000) }),
  consumeMetricsPort: setting<number | undefined>({
    env: 'CONSUME_METRICS_PORT',
    flag: '--consume-metrics-port <port>',
    description: "serve the consumer's /metrics (lag, throughput) on this port on HOST (off when unset)",
    default: undefined,
    parse: (raw) => (raw === '' ? undefined : int(0, 65535)(raw)),
  }),
  gzipLevel: setting({ env: 'GZIP_LEVEL', flag: '--gzip-level <n>', description: 'zlib level of the gzip bytes stored at import (0 stores none)', default: 6, parse: int(0, 9) }),
};

export type SettingName = keyof typeof SETTINGS;
/** The effective configuration: one value per setting. */
export type Config = { [K in SettingName]: (typeof SETTINGS)[K] extends Setting<infer T> ? T : never };
