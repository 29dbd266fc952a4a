/**
 * Long polls of the change feed, per process: waiters by project, woken by this process's own
 * writes at once and by the adapter's one shared check for other processes' writes, which runs
 * only while someone waits. Bounded: past MAX_WAITERS, or a project's share of them, a wait answers 'busy' at once.
 */
import type { WaitOutcome } from './store.js';

/** Most waits one process holds at once. */
export const MAX_WAITERS = 1000;

/** Most of them one project holds: a project's flood of polls leaves room for the others' waits. */
export const MAX_WAITERS_PER_PROJECT = MAX_WAITERS / 4;

/** The adapter's side: a check for other processes' changes, run every `intervalMs` while anyone waits. */
export interface ChangeCheck {
  intervalMs: number;
  /** Called when the first waiter arrives, before its recheck: what the checks compare against. */
  start?(): void;
  run(): Promise<void> | void;
}

export class ChangeWaiters {
  private readonly byProject = new Map<string, Set<() => void>>();
  private count = 0;
  private timer: NodeJS.Timeout | undefined;
  private checking = false;

  constructor(private readonly check: ChangeCheck) {}

  get size(): number {
    return this.count;
  }

  /**
   * Waits until `wake(project)`, `ms` or `signal`; `recheck` runs once the waiter is registered, so
   * a change committed between the caller's read and this wait still wakes it.
   */
  wait(project: string, ms: number, signal: AbortSignal | undefined, recheck: () => Promise<boolean> | boolean): Promise<WaitOutcome> {
    if (signal?.aborted === true || ms <= 0) return Promise.resolve('timeout');
    if (this.count >= MAX_WAITERS || (this.byProject.get(project)?.size ?? 0) >= MAX_WAITERS_PER_PROJECT) return Promise.resolve('busy');
    return new Promise<WaitOutcome>((resolve) => {
      let set = this.byProject.get(project);
      if (set === undefined) this.byProject.set(project, (set = new Set()));
      const waiters = set;
      let done = false;
      const finish = (outcome: WaitOutcome): void => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', aborted);
        waiters.delete(wake);
        if (waiters.size === 0 && this.byProject.get(project) === waiters) this.byProject.delete(project);
        if (--this.count === 0) this.stopChecks();
        resolve(outcome);
      };
      const wake = (): void => finish('changed');
      const aborted = (): void => finish('timeout');
      const timer = setTimeout(() => finish('timeout'), ms);
      signal?.addEventListener('abort', aborted, { once: true });
      waiters.add(wake);
      if (++this.count === 1) this.startChecks();
      Promise.resolve()
        .then(recheck)
        .then(
          (changed) => changed && wake(),
          // A failed recheck wakes the waiter: its caller's read then meets the failure itself.
          () => wake(),
        );
    });
  }

  /** Wakes every waiter of `project`. */
  wake(project: string): void {
    const set = this.byProject.get(project);
    if (set !== undefined) for (const w of [...set]) w();
  }

  /** Wakes every waiter (changes may have been missed: a lost listener connection). */
  wakeAll(): void {
    for (const project of [...this.byProject.keys()]) this.wake(project);
  }

  private startChecks(): void {
    try {
      this.check.start?.();
    } catch {
      // The check then fails too and wakes everyone, whose reads answer the failure.
    }
    this.timer ??= setInterval(() => void this.runCheck(), this.check.intervalMs).unref();
  }

  private stopChecks(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Runs the adapter's check now (not twice at once); a failure wakes everyone, whose reads then answer it. */
  async runCheck(): Promise<void> {
    if (this.checking || this.count === 0) return;
    this.checking = true;
    try {
      await this.check.run();
    } catch {
      this.wakeAll();
    } finally {
      this.checking = false;
    }
  }
}
