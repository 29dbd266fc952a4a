/**
 * Where the serving store's reads go: a streaming replica when DATABASE_READ_URL names one, else
 * the primary. While the replica cannot be reached, reads go to the primary (no answer waits for a
 * replica that is down) and the replica is tried again after RETRY_MS; a statement the replica
 * cancels for a conflict with replay is asked of the primary at once.
 */
import pg from 'pg';
import { guarded, isConnectionFailure, storeErrorFrom } from './pg-errors.js';
import { endPool } from './deadlines.js';

/** How long reads stay on the primary after the replica failed to answer. */
export const REPLICA_RETRY_MS = 1000;

/** SQLSTATEs a hot standby cancels a read with when replay needs what it holds: the same read on the primary answers. */
const REPLAY_CONFLICT = new Set(['40001', '40P01']);

/** A read's answer and whether the primary gave it although a replica is configured. */
export interface ReadAnswer<T> {
  value: T;
  /** True when a replica is configured but this answer came from the primary. */
  fromPrimary: boolean;
}

export class ReadSide {
  private downUntil = 0;

  constructor(
    private readonly primary: pg.Pool,
    readonly replica: pg.Pool | undefined,
    private readonly retryMs = REPLICA_RETRY_MS,
  ) {}

  /** The pool reads go to now (the replica unless it is down or there is none). */
  private current(): pg.Pool | undefined {
    return this.replica !== undefined && Date.now() >= this.downUntil ? this.replica : undefined;
  }

  /** Runs `read` on the replica, or on the primary when there is none or it cannot answer now. */
  async run<T>(operation: string, read: (pool: pg.Pool) => Promise<T>): Promise<ReadAnswer<T>> {
    const replica = this.current();
    if (replica !== undefined) {
      try {
        return { value: await read(replica), fromPrimary: false };
      } catch (err) {
        const code = (err as { code?: unknown } | null)?.code;
        const conflict = typeof code === 'string' && REPLAY_CONFLICT.has(code);
        if (!conflict && !isConnectionFailure(err)) throw storeErrorFrom(err, operation);
        if (!conflict) this.downUntil = Date.now() + this.retryMs;
      }
    }
    return { value: await guarded(operation, () => read(this.primary)), fromPrimary: this.replica !== undefined };
  }

  /** Like run, answering only the value. */
  async value<T>(operation: string, read: (pool: pg.Pool) => Promise<T>): Promise<T> {
    return (await this.run(operation, read)).value;
  }

  /** Connections of the replica's pool, for metrics (undefined without one). */
  replicaStats(): { total: number; idle: number; waiting: number } | undefined {
    const r = this.replica;
    return r === undefined ? undefined : { total: r.totalCount, idle: r.idleCount, waiting: r.waitingCount };
  }

  async close(): Promise<void> {
    if (this.replica !== undefined) await endPool(this.replica);
  }
}
