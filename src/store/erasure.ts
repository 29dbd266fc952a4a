/**
 * What erasing a customer or pruning old records removes, shaped the same by both adapters: the
 * counts, the document files to delete from the file store after the commit, and the rule that
 * keeps an erased record from coming back with an older version (docs/data-protection.md).
 */
import { ALERT_DOCUMENT_PATHS, COMPANY_DOCUMENT_PATHS } from '../contract/document-places.js';

/** How many records an erasure or a prune removed (or, in a dry run, would remove). */
export interface ErasureCounts {
  /** The customer record itself: 0 or 1 (a customer known only from executions has none). */
  customers: number;
  executions: number;
  alerts: number;
  /** Distinct document files the removed records name. */
  documents: number;
}

/** A document file of a project, by the objectKey its records name. */
export interface FileRef {
  project: string;
  objectKey: string;
}

/** An erasure's outcome: its counts and the document files to delete once it is committed. */
export interface Erasure extends ErasureCounts {
  /**
   * Files to delete: those the removed records name, and those an earlier erasure or prune of
   * the project could not delete yet (file_deletions). Empty in a dry run.
   */
  files: FileRef[];
}

/** A prune's outcome: records of one kind removed, and the files to delete as for an erasure. */
export interface Pruning {
  records: number;
  documents: number;
  files: FileRef[];
}

/** Most pending file deletions an erasure or prune hands back at once. */
export const PENDING_FILES_LIMIT = 10_000;

/** Record kinds a retention prune removes. */
export const PRUNE_KINDS = ['executions', 'alerts'] as const;
export type PruneKind = (typeof PRUNE_KINDS)[number];

/** Tombstone kinds: the erased customer (its record, executions and the alerts naming it) and each erased alert. */
export type TombstoneKind = 'customer' | 'alert';

/**
 * The instant key a customer's tombstones hold: the erasure's, or the newest version erased when a
 * record was dated ahead of the service's clock, so the erased bytes sent again are still stale.
 */
export function tombstoneKey(erasedAt: string, versions: ReadonlyArray<string | null | undefined>): string {
  let key = erasedAt;
  for (const v of versions) if (v !== null && v !== undefined && v > key) key = v;
  return key;
}

/**
 * An import's outcome against a tombstone: a version not newer than the erasure, or none at all,
 * is stale; a newer one (a customer onboarded again) is judged by the ordinary version rule.
 */
export function erasedOutcome(erasedKey: string | undefined, versionKey: string | null): 'stale' | undefined {
  if (erasedKey === undefined) return undefined;
  return versionKey === null || versionKey <= erasedKey ? 'stale' : undefined;
}

/** The objectKeys of the documents a stored record's JSON names, at the contract's places. */
export function documentKeysOf(table: 'customer' | 'alert', body: Buffer | string | null): string[] {
  if (body === null) return [];
  let doc: unknown;
  try {
    doc = JSON.parse(typeof body === 'string' ? body : body.toString('utf8'));
  } catch {
    return [];
  }
  const keys: string[] = [];
  for (const path of table === 'customer' ? COMPANY_DOCUMENT_PATHS : ALERT_DOCUMENT_PATHS) collect(doc, path, keys);
  return keys;
}

function collect(value: unknown, path: readonly string[], into: string[]): void {
  if (path.length === 0) {
    const key = (value as { objectKey?: unknown } | null)?.objectKey;
    if (typeof key === 'string') into.push(key);
    return;
  }
  const [step, ...rest] = path;
  if (step === '[]') {
    if (Array.isArray(value)) for (const item of value) collect(item, rest, into);
  } else if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    collect((value as Record<string, unknown>)[step!], rest, into);
  }
}
