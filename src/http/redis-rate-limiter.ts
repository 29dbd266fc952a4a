/**
 * Token buckets shared by every replica through Redis: one Lua script takes a token atomically,
 * so two replicas can never both spend the last one. When Redis cannot answer, the limiter
 * fails OPEN (the request is allowed, a warning is logged once per outage and a metric counts
 * every such decision): a rate limiter outage must not take the read API down with it.
 */
import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { decision, type RateDecision, type RateLimiter } from './rate-limit.js';

/** Every key this limiter writes starts with this, so it can share a Redis database. */
export const KEY_PREFIX = 'crs:rl:';

/** The bucket as stored (a missing key is a full bucket) and Redis's time now: shared by both scripts. */
const READ_BUCKET = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(state[1])
local at = tonumber(state[2])
if tokens == nil or at == nil then
  tokens = burst
  at = now
end
`;

/**
 * KEYS[1] bucket; ARGV[1] burst, ARGV[2] tokens per second. Returns {allowed, tokens as text}.
 * The clock is Redis's own (TIME), so replicas with skewed clocks still agree on refills.
 * The key expires when the bucket would be full again: a missing key means a full bucket.
 */
const TAKE_SCRIPT = `
local burst = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
${READ_BUCKET}tokens = math.min(burst, tokens + math.max(0, now - at) / 1000 * rate)
local allowed = 0
if tokens >= 1 then
  tokens = tokens - 1
  allowed = 1
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.max(1, math.ceil((burst - tokens) / rate * 1000)))
return {allowed, tostring(tokens)}
`;
const TAKE_SHA = createHash('sha1').update(TAKE_SCRIPT).digest('hex');

/** KEYS[1] bucket; ARGV[1] burst, ARGV[2] tokens per second, ARGV[3] tokens to debit. Refills like the take, then debits, below zero if need be. */
const CHARGE_SCRIPT = `
local burst = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local cost = tonumber(ARGV[3])
${READ_BUCKET}tokens = math.min(burst, tokens + math.max(0, now - at) / 1000 * rate) - cost
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.max(1, math.ceil((burst - tokens) / rate * 1000)))
return 1
`;

/** What the limiter reports to; both optional so tests can build a bare limiter. */
export interface RedisLimiterOptions {
  log?: Logger;
  /** Counts requests allowed only because Redis did not answer. */
  failOpen?: { inc(): void };
  /** Longest wait for one Redis answer before failing open; default 250 ms. */
  commandTimeoutMs?: number;
  /** Longest wait for the first connection when opening; default 2000 ms. */
  connectTimeoutMs?: number;
  /** After a call Redis did not answer in time, how long every call fails open without asking it; default 1000 ms. */
  backoffMs?: number;
}

/** How long calls skip Redis after one timed out, unless told otherwise. */
export const REDIS_BACKOFF_MS = 1000;

/** Token buckets in Redis, shared across replicas. */
export class RedisRateLimiter implements RateLimiter {
  private failing = false;
  /** Until then every call fails open at once: Redis last let a call wait out its time-out. */
  private skipUntil = 0;

  constructor(
    private readonly redis: Redis,
    private readonly burst: number,
    private readonly perSecond: number,
    private readonly options: RedisLimiterOptions = {},
  ) {
    // ioredis reconnects by itself; without a listener its errors would be printed unstructured.
    redis.on('error', (err: Error) => this.fail(err));
  }

  async take(key: string): Promise<RateDecision> {
    if (Date.now() < this.skipUntil) return this.openDecision();
    try {
      const [allowed, tokens] = (await this.run(KEY_PREFIX + key)) as [number, string];
      if (this.failing) {
        this.failing = false;
        this.options.log?.info('rate limiter: Redis answers again; limits are enforced');
      }
      return decision(allowed === 1, Number(tokens), this.burst, this.perSecond);
    } catch (err) {
      this.fail(err as Error);
      return this.openDecision();
    }
  }

  private openDecision(): RateDecision {
    this.options.failOpen?.inc();
    return decision(true, this.burst, this.burst, this.perSecond);
  }

  /**
   * Fire-and-forget: the answer does not wait for Redis. The command is written on the one
   * connection every take of this replica uses, and Redis runs a connection's commands in order,
   * so the debit lands before this replica's next take. It is sent as EVAL (never a NOSCRIPT
   * round trip that a later take could overtake); only heavy answers send one. A debit Redis
   * does not answer is lost, as a take fails open.
   */
  charge(key: string, tokens: number): void {
    if (Date.now() < this.skipUntil) return;
    this.redis.eval(CHARGE_SCRIPT, 1, KEY_PREFIX + key, String(this.burst), String(this.perSecond), String(tokens)).catch((err: Error) => this.fail(err));
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }

  /** EVALSHA first (the script is sent once per Redis restart), EVAL when Redis lacks it. */
  private async run(bucket: string): Promise<unknown> {
    const args = [bucket, String(this.burst), String(this.perSecond)];
    try {
      return await this.redis.evalsha(TAKE_SHA, 1, ...args);
    } catch (err) {
      if (!String((err as Error).message).includes('NOSCRIPT')) throw err;
      return this.redis.eval(TAKE_SCRIPT, 1, ...args);
    }
  }

  /** Logs the first failure of an outage only: one line per outage, not one per request. */
  private fail(err: Error): void {
    // A call that waited out its time-out would make every read wait as long: skip Redis a while.
    if (/timed? ?out/i.test(err.message)) this.skipUntil = Date.now() + (this.options.backoffMs ?? REDIS_BACKOFF_MS);
    if (this.failing) return;
    this.failing = true;
    this.options.log?.warn({ err: { message: err.message } }, 'rate limiter: Redis unavailable; failing open (requests are not limited)');
  }
}

/** Connects to Redis and returns its limiter; an unreachable Redis is logged, not fatal (fail-open). */
export async function openRedisRateLimiter(url: string, burst: number, perSecond: number, options: RedisLimiterOptions = {}): Promise<RedisRateLimiter> {
  const commandTimeout = options.commandTimeoutMs ?? 250;
  const redis = new Redis(url, {
    lazyConnect: true,
    // Fail fast instead of queueing: a request must never wait for Redis to come back.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout,
    // A connection that took a command and answered nothing is dropped and made again, so replies
    // never pair with the wrong command and a hung link does not outlive the outage.
    socketTimeout: commandTimeout,
    keepAlive: 10_000,
    connectTimeout: options.connectTimeoutMs ?? 2000,
    retryStrategy: (times) => Math.min(times * 100, 2000),
  });
  const limiter = new RedisRateLimiter(redis, burst, perSecond, options);
  await redis.connect().catch(() => undefined); // the 'error' listener has logged it; reconnects continue
  return limiter;
}
