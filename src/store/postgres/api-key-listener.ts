/**
 * Tells a replica when API keys may have changed anywhere: every key write sends a NOTIFY, and
 * a dedicated connection LISTENs. While that connection is down nothing can be vouched for, so
 * the generation is null and callers must not trust what they cached.
 */
import type pg from 'pg';
import { ListenConnection } from './listen-connection.js';

/** The channel key writes notify. */
export const API_KEYS_CHANNEL = 'crs_api_keys';

/** A LISTEN connection and the generation counter it drives. */
export class ApiKeyListener {
  private counter = 0;
  private readonly connection: ListenConnection;

  constructor(config: pg.ClientConfig) {
    this.connection = new ListenConnection(config, API_KEYS_CHANNEL, {
      notification: () => void this.counter++,
      // Anything cached before listening (again) may be stale.
      listening: () => void this.counter++,
      lost: () => void this.counter++,
    });
  }

  /** A token that changes whenever keys may have changed; null while not listening. */
  generation(): number | null {
    if (!this.connection.connected) {
      this.connection.start();
      return null;
    }
    return this.counter;
  }

  /** Bumps the generation for a write made by this process (its own NOTIFY may arrive later). */
  bump(): void {
    this.counter++;
  }

  /** Stops listening. */
  close(): Promise<void> {
    return this.connection.close();
  }
}
