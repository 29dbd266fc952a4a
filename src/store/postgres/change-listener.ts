/**
 * Wakes this replica's change feed waiters when any replica or process writes: each writing
 * transaction sends a NOTIFY (its xid and project), a dedicated connection LISTENs, and a
 * project's waiters are woken once the snapshot xmin has passed that xid (its entries are then
 * servable). Listens from the first wait on; while the connection is down, waiters are woken once
 * a second instead (a notification may have been missed).
 */
import pg from 'pg';
import type { ChangeCheck, ChangeWaiters } from '../change-waiters.js';
import { CHANGES_CHANNEL } from './postgres-changes.js';
import { ListenConnection } from './listen-connection.js';

/** How often the check runs while someone waits. */
const CHECK_MS = 100;
/** While not listening, everyone is woken this often. */
const BLIND_WAKE_MS = 1000;

export class ChangeListener implements ChangeCheck {
  readonly intervalMs = CHECK_MS;
  /** Projects written by a transaction the feed may not serve yet: the highest such xid of each, until servable. */
  private readonly pending = new Map<string, bigint>();
  private readonly connection: ListenConnection;
  private lastBlindWake = 0;
  waiters: ChangeWaiters | undefined;

  /**
   * Listens with `config` (the primary's: a hot standby delivers no NOTIFY) and reads the xmin with
   * `xmin` where the feed is read, so a project is woken once its entries are servable there.
   */
  constructor(
    config: pg.ClientConfig,
    private readonly xmin: () => Promise<bigint>,
  ) {
    this.connection = new ListenConnection(config, CHANGES_CHANNEL, {
      notification: (payload) => {
        const space = payload.indexOf(' ');
        if (space <= 0) return;
        this.note(payload.slice(space + 1), BigInt(payload.slice(0, space)));
        void this.waiters?.runCheck();
      },
      // Whatever was written before listening may have been missed.
      listening: () => this.waiters?.wakeAll(),
    });
  }

  /** A transaction `xid` of this process wrote `projects`: woken as soon as it is servable. */
  written(projects: Iterable<string>, xid: bigint): void {
    for (const p of projects) this.note(p, xid);
    void this.waiters?.runCheck();
  }

  start(): void {
    this.connection.start();
  }

  async run(): Promise<void> {
    const waiters = this.waiters;
    if (waiters === undefined) return;
    if (!this.connection.connected && Date.now() - this.lastBlindWake >= BLIND_WAKE_MS) {
      this.lastBlindWake = Date.now();
      waiters.wakeAll();
    }
    if (this.pending.size === 0) return;
    const xmin = await this.xmin();
    for (const [project, xid] of [...this.pending]) {
      if (xid < xmin) {
        this.pending.delete(project);
        waiters.wake(project);
      }
    }
  }

  private note(project: string, xid: bigint): void {
    // Kept whether or not anyone waits: a later waiter's recheck may come before the write is servable.
    const seen = this.pending.get(project);
    if (seen === undefined || xid > seen) this.pending.set(project, xid);
  }

  close(): Promise<void> {
    return this.connection.close();
  }
}
