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

/** How often the check runs while someone waits. */
const CHECK_MS = 100;
/** While not listening, everyone is woken this often. */
const BLIND_WAKE_MS = 1000;

export class ChangeListener implements ChangeCheck {
  readonly intervalMs = CHECK_MS;
  /** Projects written by a transaction the feed may not serve yet: the highest such xid of each. */
  private readonly pending = new Map<string, bigint>();
  private client: pg.Client | undefined;
  private connected = false;
  private stopped = false;
  private retry: NodeJS.Timeout | undefined;
  private lastBlindWake = 0;
  waiters: ChangeWaiters | undefined;

  constructor(
    private readonly config: pg.ClientConfig,
    private readonly pool: pg.Pool,
  ) {}

  /** A transaction `xid` of this process wrote `projects`: woken as soon as it is servable. */
  written(projects: Iterable<string>, xid: bigint): void {
    for (const p of projects) this.note(p, xid);
    void this.waiters?.runCheck();
  }

  start(): void {
    if (this.client === undefined && !this.stopped && this.retry === undefined) void this.connect();
  }

  async run(): Promise<void> {
    const waiters = this.waiters;
    if (waiters === undefined) return;
    if (!this.connected && Date.now() - this.lastBlindWake >= BLIND_WAKE_MS) {
      this.lastBlindWake = Date.now();
      waiters.wakeAll();
    }
    if (this.pending.size === 0) return;
    const r = await this.pool.query<{ xmin: string }>({ name: 'ccr_changes_xmin', text: 'SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xmin' });
    const xmin = BigInt(r.rows[0]!.xmin);
    const waiting = new Set(waiters.projects());
    for (const [project, xid] of [...this.pending]) {
      if (!waiting.has(project)) this.pending.delete(project);
      else if (xid < xmin) {
        this.pending.delete(project);
        waiters.wake(project);
      }
    }
  }

  private note(project: string, xid: bigint): void {
    // With no one waiting there is no one to wake; a waiter arriving later checks the store itself.
    if (this.waiters === undefined || this.waiters.size === 0) return;
    const seen = this.pending.get(project);
    if (seen === undefined || xid > seen) this.pending.set(project, xid);
  }

  private async connect(): Promise<void> {
    const client = new pg.Client(this.config);
    this.client = client;
    const lost = (): void => {
      if (this.client !== client) return;
      this.connected = false;
      this.client = undefined;
      client.end().catch(() => undefined);
      if (!this.stopped) this.retry = setTimeout(() => ((this.retry = undefined), void this.connect()), 1000).unref() as NodeJS.Timeout;
    };
    client.on('error', lost);
    client.on('end', lost);
    client.on('notification', (n) => {
      const payload = n.payload ?? '';
      const space = payload.indexOf(' ');
      if (space <= 0) return;
      this.note(payload.slice(space + 1), BigInt(payload.slice(0, space)));
      void this.waiters?.runCheck();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANGES_CHANNEL}`);
      this.connected = true;
      // Whatever was written before listening may have been missed.
      this.waiters?.wakeAll();
    } catch {
      lost();
    }
  }

  async close(): Promise<void> {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    this.connected = false;
    await this.client?.end().catch(() => undefined);
    this.client = undefined;
  }
}
