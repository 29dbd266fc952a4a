/** The import's rule for a record that may already be stored. */
import type { WriteOutcome } from './store.js';

/**
 * Same bytes: unchanged. An older version (by instant key) than the stored one: stale. Two contents
 * of the same instant: the greater ETag is kept whichever comes last, so a retry or redelivery of
 * either leaves the same record. Without a version on both sides the last write wins.
 */
export function versionOutcome(
  prev: { etag: string; versionKey: string | null } | undefined,
  next: { etag: string; versionKey: string | null },
): WriteOutcome {
  if (prev === undefined) return 'stored';
  if (prev.etag === next.etag) return 'unchanged';
  if (prev.versionKey !== null && next.versionKey !== null) {
    if (next.versionKey < prev.versionKey || (next.versionKey === prev.versionKey && next.etag < prev.etag)) return 'stale';
  }
  return 'stored';
}
