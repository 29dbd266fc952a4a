/**
 * Tells a replica when API keys may have changed anywhere: every key write sends a NOTIFY, and
 * a dedicated connection LISTENs. While that connection is down nothing can be vouched for, so
 * the generation is null and callers must not trust what they cached.
 */
import pg from 'pg';

/** The channel key writes notify. */
export const API_KEYS_CHANNEL = 'crs_api_keys';

/** A LISTEN connection and the generation counter it drives. */
export class ApiKeyListener {
  private client: pg.Client | undefined;
  private connected = false;
  private counter = 0;
  private stopped = false;
  private retry: NodeJS.Timeout | undefined;

  constructor(private readonly config: pg.ClientConfig) {}

  /** A token that changes whenever keys may have changed; null while not listening. */
  generation(): number | null {
    if (!this.connected) {
      if (this.client === undefined && !this.stopped && this.retry === undefined) void this.connect();
      return null;
    }
    return this.counter;
  }

  /** Bumps the generation for a write made by this process (its own NOTIFY may arrive later). */
  bump(): void {
    this.counter++;
  }

  private async connect(): Promise<void> {
    const client = new pg.Client(this.config);
    this.client = client;
    const lost = (): void => {
      if (this.client !== client) return;
      this.connected = false;
      this.client = undefined;
      this.counter++;
      client.end().catch(() => undefined);
      if (!this.stopped) this.retry = setTimeout(() => ((this.retry = undefined), void this.connect()), 1000).unref() as NodeJS.Timeout;
    };
    client.on('error', lost);
    client.on('end', lost);
    client.on('notification', () => void this.counter++);
    try {
      await client.connect();
      await client.query(`LISTEN ${API_KEYS_CHANNEL}`);
      this.counter++; // anything cached before this moment may be stale
      this.connected = true;
    } catch {
      lost();
    }
  }

  /** Stops listening. */
  async close(): Promise<void> {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    this.connected = false;
    await this.client?.end().catch(() => undefined);
    this.client = undefined;
  }
}
