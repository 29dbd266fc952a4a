/** Opening the configured store and document file store together, for the commands that remove records and their files. */
import type { Command } from 'commander';
import { storeOptionsOf } from '../config/load-config.js';
import { fileStoreOf } from '../app/file-stores.js';
import type { FileStore } from '../files/file-store.js';
import { openStore } from '../store/open-store.js';
import type { Store } from '../store/store.js';
import { configFrom, withSettings } from './config-options.js';

/** The settings naming the store and the file store (S3 credentials come from the environment only). */
export function withStoreAndFiles(cmd: Command): Command {
  return withSettings(cmd, ['databaseUrl', 'fileStore', 'filesDir', 's3Endpoint', 's3Region', 's3Bucket', 's3ForcePathStyle']);
}

/** Runs `use` with the store and file store the options and environment name; always closes the store. */
export async function useStoreAndFiles<T>(opts: Record<string, unknown>, use: (store: Store, files: FileStore) => Promise<T>): Promise<T> {
  const config = configFrom(opts);
  // A customer with many executions is one long transaction: the bulk statement timeout, as for an import.
  const store = await openStore(config.databaseUrl, storeOptionsOf(config, 'bulk writes'));
  try {
    const { files } = await fileStoreOf(config, await store.secret());
    return await use(store, files);
  } finally {
    await store.close();
  }
}
