/**
 * Coalesces reads by key: the lookups that arrive in one turn of the event loop for the same
 * project and statement go to the store as one statement with the keys as an array (PostgreSQL's
 * record reads, both stores' change stamps).
 */
import { isStoreUnavailable } from './store-errors.js';

/** Most keys one statement carries; more waiting lookups start another statement. */
export const MAX_KEYS_PER_STATEMENT = 256;

interface Waiter<R> {
  key: string;
  resolve: (row: R | undefined) => void;
  reject: (err: unknown) => void;
}

/** One prepared statement taking (project, keys[]) and answering each row with its key. */
export interface BatchedStatement {
  /** The store operation it serves, for error messages. */
  operation: string;
  name: string;
  text: string;
}

/** Runs a batched statement and answers its rows by key; the store passes its pool (and wraps errors) here. */
export type RunBatch<R> = (statement: BatchedStatement, project: string, keys: string[]) => Promise<Map<string, R>>;

/**
 * Queues lookups per (statement, project) and flushes them together on setImmediate, after the
 * current turn's requests have all been parsed. Under load this turns a round trip per request into
 * one per turn; alone, a lookup waits for nothing but the rest of the turn. With `maxInFlight`
 * statements out, lookups keep gathering until one answers: the farther the server, the larger
 * each statement, rather than a queue of small ones waiting for a connection.
 */
export class ReadBatcher<R> {
  private readonly queues = new Map<string, { statement: BatchedStatement; project: string; waiters: Waiter<R>[] }>();
  private scheduled = false;
  private inFlight = 0;

  constructor(
    private readonly run: RunBatch<R>,
    private readonly maxInFlight = Number.POSITIVE_INFINITY,
  ) {}

  /** The row of `key` in `project`, read with `statement` in this turn's batch. */
  get(statement: BatchedStatement, project: string, key: string): Promise<R | undefined> {
    return new Promise<R | undefined>((resolve, reject) => {
      const id = `${statement.name}\u0000${project}`;
      let queue = this.queues.get(id);
      if (queue === undefined) {
        queue = { statement, project, waiters: [] };
        this.queues.set(id, queue);
      }
      queue.waiters.push({ key, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.queues.size === 0 || this.inFlight >= this.maxInFlight) return;
    this.scheduled = true;
    setImmediate(() => this.flush());
  }

  private flush(): void {
    this.scheduled = false;
    // Queues left for later keep their place: the oldest lookups go first.
    for (const [id, { statement, project, waiters }] of this.queues) {
      if (this.inFlight >= this.maxInFlight) return;
      this.queues.delete(id);
      for (let i = 0; i < waiters.length; i += MAX_KEYS_PER_STATEMENT) {
        this.inFlight++;
        void this.runOne(statement, project, waiters.slice(i, i + MAX_KEYS_PER_STATEMENT)).finally(() => {
          this.inFlight--;
          this.schedule();
        });
      }
    }
  }

  private async runOne(statement: BatchedStatement, project: string, waiters: Waiter<R>[]): Promise<void> {
    const keys = [...new Set(waiters.map((w) => w.key))];
    try {
      const byKey = await this.run(statement, project, keys);
      for (const w of waiters) w.resolve(byKey.get(w.key));
    } catch (err) {
      // An unreachable server fails every key alike; any other failure may be one key's own
      // (a value the server refuses), so each key is asked alone and only its lookups fail.
      if (keys.length === 1 || isStoreUnavailable(err)) for (const w of waiters) w.reject(err);
      else await Promise.all([...waitersByKey(waiters).values()].map((alone) => this.runOne(statement, project, alone)));
    }
  }
}

function waitersByKey<R>(waiters: Waiter<R>[]): Map<string, Waiter<R>[]> {
  const byKey = new Map<string, Waiter<R>[]>();
  for (const w of waiters) {
    const list = byKey.get(w.key);
    if (list === undefined) byKey.set(w.key, [w]);
    else list.push(w);
  }
  return byKey;
}
