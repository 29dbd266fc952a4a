/** Opening the store a command's `--db` names, for commands that work on it from the command line's own thread. */
import { loadConfig, storeOptionsOf } from '../config/load-config.js';
import { openStore } from '../store/open-store.js';
import type { Store } from '../store/store.js';

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
