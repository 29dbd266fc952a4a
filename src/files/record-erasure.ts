/**
 * Erasure and retention end to end: the store's transaction first, then the document files the
 * removed records name, deleted from the file store after the commit. A file that cannot be
 * deleted stays pending in the store, and the next erasure or prune deletes it.
 */
import type { ErasureCounts, FileRef, PruneKind } from '../store/erasure.js';
import type { Store } from '../store/store.js';
import type { FileStore } from './file-store.js';
import { isSafeObjectKey } from './file-store.js';

/** What an erasure removed and which of its files are gone. */
export interface ErasureReport extends ErasureCounts {
  dryRun: boolean;
  filesDeleted: number;
  filesPending: number;
}

/** What a prune removed and which of its files are gone. */
export interface PruneReport {
  dryRun: boolean;
  records: number;
  documents: number;
  filesDeleted: number;
  filesPending: number;
}

/** Erases a customer of a project (see Store.eraseCustomer), then its document files. */
export async function eraseCustomerFiles(store: Store, files: FileStore, project: string, customerKey: string, dryRun: boolean): Promise<ErasureReport> {
  const { files: pending, ...counts } = await store.eraseCustomer(project, customerKey, { dryRun });
  return { ...counts, dryRun, ...(await deleteFiles(store, files, pending)) };
}

/** Prunes records of `kind` before `beforeKey` (see Store.pruneRecords), then their document files. */
export async function pruneRecordFiles(store: Store, files: FileStore, kind: PruneKind, beforeKey: string, dryRun: boolean): Promise<PruneReport> {
  const { files: pending, records, documents } = await store.pruneRecords(kind, beforeKey, { dryRun });
  return { dryRun, records, documents, ...(await deleteFiles(store, files, pending)) };
}

/** Deletes the files, then forgets those gone (and those no file can have: an unusable objectKey). */
async function deleteFiles(store: Store, files: FileStore, refs: readonly FileRef[]): Promise<{ filesDeleted: number; filesPending: number }> {
  const gone: FileRef[] = [];
  let deleted = 0;
  for (const ref of refs) {
    if (!isSafeObjectKey(ref.objectKey)) {
      gone.push(ref);
      continue;
    }
    try {
      await files.remove(ref.project, ref.objectKey);
      gone.push(ref);
      deleted++;
    } catch (err) {
      // A project no file can belong to has none to delete; any other failure stays pending for the next run.
      if (err instanceof RangeError) gone.push(ref);
    }
  }
  await store.forgetFileDeletions(gone);
  return { filesDeleted: deleted, filesPending: refs.length - gone.length };
}
