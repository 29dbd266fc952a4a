/**
 * Signed document URLs (and so the ETags of records that hold documents) roll over when the wall
 * clock crosses an expiry bucket: a test comparing two answers' ETags must not straddle that moment.
 */
import { DEFAULT_BUCKET_SECONDS } from '../../src/files/file-store.js';

/** Waits for the next bucket when fewer than `marginMs` remain of this one. */
export async function clearOfSigningRollover(marginMs = 5000): Promise<void> {
  const bucketMs = DEFAULT_BUCKET_SECONDS * 1000;
  const left = bucketMs - (Date.now() % bucketMs);
  if (left < marginMs) await new Promise((resolve) => setTimeout(resolve, left + 50));
}
