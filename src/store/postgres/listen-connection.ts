/**
 * One dedicated connection that LISTENs on a channel and reconnects a second after it is lost.
 * While it is down, notifications may have been missed: its owner is told (onLost) and told again
 * once listening resumes (onListening), so it can stop trusting, then refresh, what it knows.
 */
import pg from 'pg';

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

  constructor(
    private readonly config: pg.ClientConfig,
    private readonly channel: string,
    private readonly handlers: ListenHandlers,
  ) {}

  /** True while LISTEN holds. */
  get connected(): boolean {
    return this.listening;
  }

  /** Connects unless already connecting, connected, waiting to retry, or closed. */
  start(): void {
    if (this.client === undefined && !this.stopped && this.retry === undefined) void this.connect();
  }

  private async connect(): Promise<void> {
    const client = new pg.Client(this.config);
    this.client = client;
    const lost = (): void => {
      if (this.client !== client) return;
      this.listening = false;
      this.client = undefined;
      this.handlers.lost?.();
      client.end().catch(() => undefined);
      if (!this.stopped) this.retry = setTimeout(() => ((this.retry = undefined), void this.connect()), 1000).unref() as NodeJS.Timeout;
    };
    client.on('error', lost);
    client.on('end', lost);
    client.on('notification', (n) => this.handlers.notification(n.payload ?? ''));
    try {
      await client.connect();
      await client.query(`LISTEN ${this.channel}`);
      this.listening = true;
      this.handlers.listening?.();
    } catch {
      lost();
    }
  }

  /** Stops listening for good. */
  async close(): Promise<void> {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    this.listening = false;
    await this.client?.end().catch(() => undefined);
    this.client = undefined;
  }
}
