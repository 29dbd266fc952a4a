/** `compliance-read files put|adopt`: document files of the local file store, each under its project. */
import { storeOptionsOf } from '../config/load-config.js';
import { Command } from 'commander';
import type { LocalFileStore } from '../files/local-file-store.js';
import { openStore } from '../store/open-store.js';
import { fileStoreOf } from '../app/file-stores.js';
import { configFrom, withSettings } from './config-options.js';

/** Runs `use` with the configured local file store (the store is opened only for its signing secret). */
async function withLocalFiles(opts: Record<string, unknown>, use: (local: LocalFileStore) => Promise<void>): Promise<void> {
  const config = configFrom(opts);
  const store = await openStore(config.databaseUrl, storeOptionsOf(config));
  try {
    const { local } = await fileStoreOf({ ...config, fileStore: 'local' }, await store.secret());
    await use(local!);
  } finally {
    await store.close();
  }
}

/** Builds the files command group. */
export function filesCommand(): Command {
  const files = new Command('files').description('manage document files of the local file store');
  files.addCommand(
    withSettings(new Command('put'), ['databaseUrl', 'filesDir'])
      .description("copy a file into the local store under a project and an objectKey (a record's document.objectKey)")
      .requiredOption('--project <project>', 'the project (cmsProjectId) whose records name this file')
      .argument('<objectKey>', 'the objectKey records use for this file')
      .argument('<path>', 'the file to copy')
      .action(async (objectKey: string, path: string, opts: Record<string, unknown>) => {
        const project = opts.project as string;
        await withLocalFiles(opts, async (local) => {
          await local.put(project, objectKey, path);
          process.stdout.write(`stored ${objectKey} of project ${project} in ${local.dir}\n`);
        });
      }),
  );
  files.addCommand(
    withSettings(new Command('adopt'), ['databaseUrl', 'filesDir'])
      .description('move files stored flat in the directory (before files belonged to projects) under a project')
      .requiredOption('--project <project>', 'the project (cmsProjectId) the files belong to')
      .option('--all', 'every flat file (a directory that only ever held this project\'s files)')
      .argument('[objectKeys...]', 'the objectKeys of the project\'s files')
      .action(async (objectKeys: string[], opts: Record<string, unknown>) => {
        if (objectKeys.length === 0 && opts.all !== true) throw new Error('name the objectKeys to move, or --all for every flat file');
        if (objectKeys.length > 0 && opts.all === true) throw new Error('give either objectKeys or --all, not both');
        const project = opts.project as string;
        await withLocalFiles(opts, async (local) => {
          const { moved, skipped } = await local.adopt(project, opts.all === true ? undefined : objectKeys);
          process.stdout.write(`moved ${moved.length} files under project ${project} in ${local.dir}\n`);
          for (const key of skipped) process.stdout.write(`skipped ${key}: no flat file, or one is already stored under the project\n`);
        });
      }),
  );
  return files;
}
