/** The rate limiters a configuration names: the keys' budgets and the refused answers' budgets per client address. */
import type { Logger } from 'pino';
import type { Config } from '../config/settings.js';
import type { Metrics } from '../http/metrics.js';
import { MemoryRateLimiter, type RateLimiter } from '../http/rate-limit.js';

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
