/** Worker thread of SqliteWriteThread: makes the serving store's writes on its own connection to the file. */
import { parentPort, workerData } from 'node:worker_threads';
import { withBuffers } from '../../threads/owned-bytes.js';
import { openSqliteStore } from './sqlite-store.js';
import type { WriteAnswer, WriteRequest } from './write-thread.js';

const { file } = workerData as { file: string };
// A writer reads little and writes much, as an import does: no mapped reads, a small page cache.
const store = await openSqliteStore(file, { bulkWrites: true });

function made(request: WriteRequest): unknown {
  switch (request.op) {
    case 'write':
      // Bytes arrive as plain Uint8Arrays; the store's writers expect Buffers.
      return store.writeNow(withBuffers(request.items));
    case 'erase':
      return store.eraseNow(request.project, request.customerKey, request.dryRun);
    case 'forget':
      return store.forgetNow(request.files);
  }
}

parentPort!.on('message', (request: WriteRequest) => {
  let answer: WriteAnswer;
  try {
    answer = { id: request.id, ok: true, value: made(request) };
  } catch (err) {
    const e = err as { message?: string; code?: string };
    answer = { id: request.id, ok: false, message: e.message ?? String(err), code: e.code };
  }
  parentPort!.postMessage(answer);
});
