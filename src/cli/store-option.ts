/** The `--db` option every command shares, and opening the store it names. */
import type { Command } from 'commander';
import { loadConfig, storeOptionsOf } from '../config/load-config.js';
import { SETTINGS } from '../config/settings.js';
import { openStore } from '../store/open-store.js';
import type { Store } from '../store/store.js';

/** Adds `--db` (DATABASE_URL) to a command. */
export function withDbOption(cmd: Command): Command {
  return cmd.option(SETTINGS.databaseUrl.flag, `${SETTINGS.databaseUrl.description} [env DATABASE_URL]`);
}

/** Opens the store named by `--db` or DATABASE_URL, runs `fn`, and always closes the store. */
export async function useStore<T>(opts: { db?: string; bulkWrites?: boolean }, fn: (store: Store) => Promise<T>): Promise<T> {
  const config = loadConfig({ databaseUrl: opts.db });
  const store = await openStore(config.databaseUrl, { ...storeOptionsOf(config, opts.bulkWrites ? 'bulk writes' : 'reads'), bulkWrites: opts.bulkWrites });
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}
