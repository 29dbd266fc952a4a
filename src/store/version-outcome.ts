/** The import's rule for a record that may already be stored. */
import type { WriteOutcome } from './store.js';

/**
 * Same bytes: unchanged. An older version (by instant key) than the stored one: stale.
 * Otherwise the incoming record replaces the stored one (equal or missing versions: last write wins).
 */
export function versionOutcome(
  prev: { etag: string; versionKey: string | null } | undefined,
  next: { etag: string; versionKey: string | null },
): WriteOutcome {
  if (prev === undefined) return 'stored';
  if (prev.etag === next.etag) return 'unchanged';
  if (prev.versionKey !== null && next.versionKey !== null && next.versionKey < prev.versionKey) return 'stale';
  return 'stored';
}
