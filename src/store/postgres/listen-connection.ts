/**
 * One dedicated connection that LISTENs on a channel and reconnects a second after it is lost.
 * While it is down, notifications may have been missed: its owner is told (onLost) and told again
 * once listening resumes (onListening), so it can stop trusting, then refresh, what it knows.
 * A connection dropped silently (no FIN or RST) never reports 'error' or 'end', so it proves
 * itself alive: a probe query every PROBE_MS, and it counts as listening only while the last probe
 * answered was sent within TRUST_MS; a probe unanswered for PROBE_DEADLINE_MS loses it.
 */
import pg from 'pg';
import { endClient, destroyClient, KEEPALIVE_IDLE_MS, withDeadline } from './deadlines.js';

/** How long after an answered probe the next one is sent. */
export const PROBE_MS = 500;
/** A probe unanswered this long means the connection is dead: it is destroyed and made again. */
export const PROBE_DEADLINE_MS = 1000;
/**
 * Listening counts only while the last answered probe was sent within this: notifications of
 * anything committed before it was sent had arrived ahead of its answer, so nothing older was missed.
 */
export const TRUST_MS = PROBE_MS + PROBE_DEADLINE_MS;

export interface ListenHandlers {
  /** A NOTIFY on the channel arrived. */
  notification(payload: string): void;
  /** LISTEN took effect (first time, or after a reconnect). */
  listening?(): void;
  /** The connection failed or ended; a reconnect follows unless closed. */
  lost?(): void;
}

export class ListenConnection {
  private client: pg.Client | undefined;
  private listening = false;
  private stopped = false;
  private retry: NodeJS.Timeout | undefined;
  private probe: NodeJS.Timeout | undefined;
  /** When the last answered probe (or the LISTEN) was sent. */
  private provenAt = 0;

  constructor(
    private readonly config: pg.ClientConfig,
    private readonly channel: string,
    private readonly handlers: ListenHandlers,
    private readonly timing = { probeMs: PROBE_MS, probeDeadlineMs: PROBE_DEADLINE_MS, trustMs: TRUST_MS },
  ) {}

  /** True while LISTEN holds and the connection answered a probe recently. */
  get connected(): boolean {
    return this.listening && Date.now() - this.provenAt <= this.timing.trustMs;
  }

  /** Connects unless already connecting, connected, waiting to retry, or closed. */
  start(): void {
    if (this.client === undefined && !this.stopped && this.retry === undefined) void this.connect();
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ ...this.config, keepAlive: true, keepAliveInitialDelayMillis: KEEPALIVE_IDLE_MS });
    this.client = client;
    const lost = (): void => {
      if (this.client !== client) return;
      this.listening = false;
      this.client = undefined;
      clearTimeout(this.probe);
      this.handlers.lost?.();
      // A dead connection would never answer the goodbye: its socket goes at once.
      destroyClient(client);
      if (!this.stopped) this.retry = setTimeout(() => ((this.retry = undefined), void this.connect()), 1000).unref() as NodeJS.Timeout;
    };
    client.on('error', lost);
    client.on('end', lost);
    client.on('notification', (n) => this.handlers.notification(n.payload ?? ''));
    try {
      await client.connect();
      const sentAt = Date.now();
      await client.query(withDeadline({ text: `LISTEN ${this.channel}` }, this.timing.probeDeadlineMs));
      if (this.client !== client) return;
      this.provenAt = sentAt;
      this.listening = true;
      this.handlers.listening?.();
      this.probeLater(client, lost);
    } catch {
      lost();
    }
  }

  /** Sends the next probe after probeMs; one that fails or misses its deadline loses the connection. */
  private probeLater(client: pg.Client, lost: () => void): void {
    this.probe = setTimeout(() => {
      const sentAt = Date.now();
      client.query(withDeadline({ text: 'SELECT 1' }, this.timing.probeDeadlineMs)).then(
        () => {
          if (this.client !== client) return;
          this.provenAt = sentAt;
          this.probeLater(client, lost);
        },
        lost,
      );
    }, this.timing.probeMs).unref() as NodeJS.Timeout;
  }

  /** Stops listening for good. */
  async close(): Promise<void> {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    clearTimeout(this.probe);
    this.listening = false;
    const client = this.client;
    this.client = undefined;
    if (client !== undefined) await endClient(client);
  }
}
