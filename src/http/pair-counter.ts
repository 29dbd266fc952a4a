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

  inc(first: string, second: string): void {
    let seconds = this.counts.get(first);
    if (seconds === undefined) this.counts.set(first, (seconds = new Map()));
    seconds.set(second, (seconds.get(second) ?? 0) + 1);
  }
}
