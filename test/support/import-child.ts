/**
 * A separate importing process for tests: `node --import tsx test/support/import-child.ts <db url>
 * <file> <batch records>` imports the file through its own store connection in small batches, so
 * several such processes interleave their transactions. Prints the summary as JSON.
 */
import { importFiles } from '../../src/ingest/importer.js';
import { openStore } from '../../src/store/open-store.js';

const [url, file, batch] = process.argv.slice(2);
const store = await openStore(url!, { bulkWrites: true, poolSize: 2 });
try {
  const summary = await importFiles(store, [file!], { batchRecords: Number(batch ?? 25), gzipLevel: null });
  process.stdout.write(`${JSON.stringify(summary)}\n`);
} finally {
  await store.close();
}
