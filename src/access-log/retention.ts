/**
 * Retention of the access log in the serving process: with ACCESS_LOG_RETENTION_DAYS set, whole
 * batches older than that are deleted at start and then hourly, a bounded number per store call
 * so that reads interleave with the work.
 */
import type { BaseLogger } from 'pino';
import type { AccessLogPruning } from './access-log.js';

/** How the job runs. */
export interface RetentionOptions {
  /** Time between rounds (default one hour). */
  everyMs?: number;
  /** Batches deleted per store call (default 50, about 25,000 entries). */
  perCall?: number;
  /** The clock, for tests. */
  now?: () => number;
}

/** A running retention job. */
export interface RetentionJob {
  /** Runs one round now: deletes everything older than the cutoff, a call at a time; returns the batches and entries deleted. */
  runOnce(): Promise<{ batches: number; entries: number }>;
  /** Stops the timer and waits for a round under way to finish its current call. */
  stop(): Promise<void>;
}

/** The cutoff of a retention in days: entries before it are deleted. */
export function retentionCutoff(days: number, now: number): string {
  return new Date(now - days * 86_400_000).toISOString();
}

/** Starts pruning batches older than `days` days: one round at once, then one every `everyMs`. */
export function startAccessLogRetention(store: AccessLogPruning, days: number, log: Pick<BaseLogger, 'info' | 'warn'> | undefined, options: RetentionOptions = {}): RetentionJob {
  const perCall = options.perCall ?? 50;
  const now = options.now ?? Date.now;
  let stopped = false;
  let running: Promise<{ batches: number; entries: number }> | undefined;

  const round = async (): Promise<{ batches: number; entries: number }> => {
    const before = retentionCutoff(days, now());
    const total = { batches: 0, entries: 0 };
    for (;;) {
      if (stopped) break;
      const r = await store.pruneAccessLog(before, perCall);
      total.batches += r.batches;
      total.entries += r.entries;
      if (r.batches < perCall) break;
      // Let the requests waiting behind this call run before the next one.
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (total.batches > 0) log?.info({ before, batches: total.batches, entries: total.entries }, 'access log: deleted entries older than the retention');
    return total;
  };
  const runOnce = (): Promise<{ batches: number; entries: number }> => {
    running ??= round().finally(() => (running = undefined));
    return running;
  };
  const tick = (): void => {
    void runOnce().catch((err: unknown) => log?.warn({ err }, 'access log retention round failed; retried next round'));
  };
  const timer = setInterval(tick, options.everyMs ?? 3_600_000);
  timer.unref();
  setImmediate(tick);
  return {
    runOnce,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running?.catch(() => undefined);
    },
  };
}
