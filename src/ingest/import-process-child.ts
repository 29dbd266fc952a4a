/** The import's own process (import-process.ts): receives its job, opens the store, imports, reports. */
import { openStore } from '../store/open-store.js';
import type { ChildImport, ImportProcessMessage } from './import-process.js';
import { importFiles } from './importer.js';
import { ImportStopped } from './import-summary.js';

let reported = false;
const post = (m: ImportProcessMessage): void => {
  if (process.connected) process.send!(m);
};

// The command's process is gone (killed outright): stop, as the command itself would have. Each
// batch commits whole or not at all, so a re-run resumes.
process.on('disconnect', () => {
  if (!reported) process.exit(1);
});

async function run(job: ChildImport): Promise<ImportProcessMessage> {
  const store = await openStore(job.db, { ...job.store, bulkWrites: true });
  try {
    return { done: await importFiles(store, job.files, { ...job.options, onProgress: (summary, position) => post({ progress: [summary, position] }) }) };
  } finally {
    await store.close();
  }
}

function outcomeOf(err: unknown): ImportProcessMessage {
  if (err instanceof ImportStopped) return { stopped: { summary: err.summary, file: err.file, lineNo: err.lineNo, maxRejects: err.maxRejects } };
  return { failed: { name: err instanceof Error ? err.name : 'Error', message: err instanceof Error ? err.message : String(err) } };
}

process.once('message', (job: ChildImport) => {
  void run(job)
    .catch(outcomeOf)
    .then((outcome) => {
      reported = true;
      // Disconnected once sent, so the channel keeps the process alive no longer.
      if (!process.connected) return;
      process.send!(outcome, undefined, {}, () => {
        if (process.connected) process.disconnect();
      });
    });
});
