/**
 * A counter with two labels counted per request (a cache's list or kind, and its outcome): plain
 * numbers found by two map lookups, handed to prom-client's counter when it is scraped. Its own
 * `inc` builds and hashes a label object each time (docs/architecture.md).
 */
import { Counter, type Registry } from 'prom-client';

export class PairCounter<A extends string, B extends string> {
  private readonly counts = new Map<string, Map<string, number>>();
  readonly counter: Counter<A | B>;

  constructor(config: { name: string; help: string; labelNames: readonly [A, B]; registers: Registry[] }) {
    const counts = this.counts;
    const [a, b] = config.labelNames;
    this.counter = new Counter<A | B>({
      ...config,
      collect() {
        this.reset();
        for (const [first, seconds] of counts) for (const [second, n] of seconds) this.inc({ [a]: first, [b]: second } as Record<A | B, string>, n);
      },
    });
  }

  /** Shows every pair of these labels at 0 until first counted: a rate over a series that appears with its first count misses that count. */
  zero(firsts: readonly string[], seconds: readonly string[]): this {
    for (const first of firsts) for (const second of seconds) if (this.counts.get(first)?.get(second) === undefined) this.add(first, second, 0);
    return this;
  }

  inc(first: string, second: string): void {
    this.add(first, second, 1);
  }

  private add(first: string, second: string, n: number): void {
    let seconds = this.counts.get(first);
    if (seconds === undefined) this.counts.set(first, (seconds = new Map()));
    seconds.set(second, (seconds.get(second) ?? 0) + n);
  }
}
