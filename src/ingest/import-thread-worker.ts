/** The import's own thread (import-thread.ts): opens the store, imports, reports. */
import { parentPort, workerData } from 'node:worker_threads';
import { openStore } from '../store/open-store.js';
import type { ImportThreadMessage, ThreadedImport } from './import-thread.js';
import { importFiles } from './importer.js';
import { ImportStopped } from './import-summary.js';

const job = workerData as ThreadedImport;
const post = (m: ImportThreadMessage): void => parentPort!.postMessage(m);

async function run(): Promise<ImportThreadMessage> {
  const store = await openStore(job.db, { ...job.store, bulkWrites: true });
  try {
    return { done: await importFiles(store, job.files, { ...job.options, onProgress: (summary, position) => post({ progress: [summary, position] }) }) };
  } finally {
    await store.close();
  }
}

run().then(post, (err: unknown) => {
  if (err instanceof ImportStopped) post({ stopped: { summary: err.summary, file: err.file, lineNo: err.lineNo, maxRejects: err.maxRejects } });
  else post({ failed: { name: err instanceof Error ? err.name : 'Error', message: err instanceof Error ? err.message : String(err) } });
});
