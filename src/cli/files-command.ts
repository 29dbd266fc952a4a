/** `compliance-read files put`: adds a document file to the local file store. */
import { storeOptionsOf } from '../config/load-config.js';
import { Command } from 'commander';
import { openStore } from '../store/open-store.js';
import { fileStoreOf } from '../http/service.js';
import { configFrom, withSettings } from './config-options.js';

/** Builds the files command group. */
export function filesCommand(): Command {
  const files = new Command('files').description('manage document files of the local file store');
  files.addCommand(
    withSettings(new Command('put'), ['databaseUrl', 'filesDir'])
      .description('copy a file into the local store under an objectKey (the document.objectKey of a record)')
      .argument('<objectKey>', 'the objectKey records use for this file')
      .argument('<path>', 'the file to copy')
      .action(async (objectKey: string, path: string, opts: Record<string, unknown>) => {
        const config = configFrom(opts);
        const store = await openStore(config.databaseUrl, storeOptionsOf(config));
        try {
          const { local } = await fileStoreOf({ ...config, fileStore: 'local' }, await store.secret());
          await local!.put(objectKey, path);
          process.stdout.write(`stored ${objectKey} in ${local!.dir}\n`);
        } finally {
          await store.close();
        }
      }),
  );
  return files;
}
