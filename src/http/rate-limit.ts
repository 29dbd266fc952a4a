/** Per-key token buckets: a burst, then a steady refill; answers how long to wait when empty. */
import { LRUCache } from 'lru-cache';

/** The outcome of taking one token. */
export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until a token is available (0 when allowed). */
  retryAfter: number;
  /** Seconds until the bucket is full again. */
  reset: number;
}

/** A rate limiter shared by every route; in-process or backed by Redis. */
export interface RateLimiter {
  take(key: string): Promise<RateDecision>;
  /**
   * Debits `tokens` more for an answer that cost more than the token taken at the door. The
   * bucket may go below zero: the key's next requests are refused until the debt is refilled.
   * Never awaited by an answer.
   */
  charge(key: string, tokens: number): void;
  close(): Promise<void>;
}

/** Token buckets in this process's memory (one replica). */
export class MemoryRateLimiter implements RateLimiter {
  // Bounded memory: dropping the least recently used bucket only refills it. Bounded by maxSize, as
  // `max` would allocate all 100,000 slots when the service starts.
  private readonly buckets = new LRUCache<string, { tokens: number; at: number }>({ maxSize: 100_000, sizeCalculation: () => 1 });

  constructor(
    private readonly burst: number,
    private readonly perSecond: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  async take(key: string): Promise<RateDecision> {
    const t = this.now();
    let b = this.buckets.get(key);
    if (b === undefined) {
      b = { tokens: this.burst, at: t };
      this.buckets.set(key, b);
    }
    b.tokens = Math.min(this.burst, b.tokens + ((t - b.at) / 1000) * this.perSecond);
    b.at = t;
    const allowed = b.tokens >= 1;
    if (allowed) b.tokens -= 1;
    return decision(allowed, b.tokens, this.burst, this.perSecond);
  }

  charge(key: string, tokens: number): void {
    const t = this.now();
    const b = this.buckets.get(key) ?? { tokens: this.burst, at: t };
    b.tokens = Math.min(this.burst, b.tokens + ((t - b.at) / 1000) * this.perSecond) - tokens;
    b.at = t;
    this.buckets.set(key, b);
  }

  async close(): Promise<void> {}
}

/** Builds the decision headers' numbers from a bucket's state. */
export function decision(allowed: boolean, tokens: number, burst: number, perSecond: number): RateDecision {
  return {
    allowed,
    limit: burst,
    remaining: Math.max(0, Math.floor(tokens)),
    retryAfter: allowed ? 0 : Math.max(1, Math.ceil((1 - tokens) / perSecond)),
    reset: Math.max(0, Math.ceil((burst - tokens) / perSecond)),
  };
}
