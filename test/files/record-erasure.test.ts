/** Document files of an erasure: deleted after the commit, and when the file store fails, kept pending until an erasure run again deletes them. */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordKey } from '../../src/contract/record-key.js';
import { projectSegment } from '../../src/files/file-store.js';
import { LocalFileStore } from '../../src/files/local-file-store.js';
import { eraseCustomerFiles } from '../../src/files/record-erasure.js';
import { S3FileStore } from '../../src/files/s3-file-store.js';
import type { Store } from '../../src/store/store.js';
import { importLines } from '../support/changes-feed.js';
import { documentKey, personalHistory } from '../support/erasure-records.js';
import { storeHarnesses } from '../support/store-harness.js';

const P = 'files-erasure';
const C = 'f11e5000-3d1f-4a6b-9c8d-7e6f5a4b3c2d';

describe.each(storeHarnesses())('$adapter: the files of an erasure', ({ make }) => {
  const harness = make();
  const dir = mkdtempSync(join(tmpdir(), 'crs-erasure-files-'));
  let store: Store;
  let local: LocalFileStore;

  beforeAll(async () => {
    store = await harness.open();
    await importLines(store, personalHistory(P, C, 1, 2));
    local = new LocalFileStore({ dir, secret: await store.secret(), publicBaseUrl: 'http://localhost' });
    for (const n of [999, 0, 1]) await local.putBytes(P, documentKey(C, n), 'doc');
  });
  afterAll(async () => {
    await store?.close();
    await harness.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps the files pending while the file store refuses, and deletes them on the next run', async () => {
    // An S3 endpoint nothing listens on, tried once: every delete fails.
    const down = new S3FileStore({
      bucket: 'b',
      client: new S3Client({ endpoint: 'http://127.0.0.1:9', region: 'us-east-1', forcePathStyle: true, maxAttempts: 1, credentials: { accessKeyId: 'a', secretAccessKey: 'b' } }),
    });
    const first = await eraseCustomerFiles(store, down, P, recordKey(C), false);
    expect(first).toMatchObject({ customers: 1, executions: 1, alerts: 2, documents: 3, filesDeleted: 0, filesPending: 3 });
    expect(await store.getCompany(P, recordKey(C))).toBeUndefined();

    const again = await eraseCustomerFiles(store, local, P, recordKey(C), false);
    expect(again).toMatchObject({ customers: 0, executions: 0, alerts: 0, documents: 0, filesDeleted: 3, filesPending: 0 });
    for (const n of [999, 0, 1]) expect(existsSync(join(dir, projectSegment(P)!, documentKey(C, n)))).toBe(false);
    expect(await eraseCustomerFiles(store, local, P, recordKey(C), false)).toMatchObject({ filesDeleted: 0, filesPending: 0 });
  });
});
