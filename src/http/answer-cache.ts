/**
 * Record answers by id, kept as sent: the encoded bytes of one record in one view and encoding,
 * valid while the record's content ETag and its signed URLs' expiry bucket are the ones they were
 * made from (an answer's bytes are a function of those three, so its strong ETag stays true).
 * A reader asks the store for the record's ETag alone and, when it matches, sends these bytes:
 * clients reading the same record share one copy instead of each holding its own.
 */
import { LRUCache } from 'lru-cache';
import type { RecordKind } from '../wire/redaction.js';
import type { Encoding } from './accept.js';

/** One answer as it was sent. */
export interface KeptAnswer {
  /** The record's content ETag it was rendered from. */
  readonly etag: string;
  /** The expiry bucket of its signed URLs; undefined when it has none. */
  readonly expires: number | undefined;
  /** The ETag header's value, before the encoding suffix. */
  readonly tag: string;
  /** The encoding the bytes are in (a negotiated br or gzip may have been sent as identity). */
  readonly encoding: Encoding;
  readonly bytes: Buffer;
  /** Bytes of the JSON the answer stands for (what the rate budget is charged for). */
  readonly jsonLength: number;
  /**
   * The change epoch of the record's project found before the answer was last found current; while
   * the project's epoch is the same, no record of the project changed, so the answer is still
   * current without looking its record up. Undefined when none was found (the cache was off).
   */
  readonly epoch?: number;
}

/** How a read by id went: its kept answer sent (hit), none kept (miss), or one kept for an older version or expiry (stale). */
export type AnswerOutcome = 'hit' | 'miss' | 'stale';

/** Told of each read by id (metrics). */
export type AnswerCacheObserver = (kind: RecordKind, outcome: AnswerOutcome) => void;

/** What identifies a kept answer: the record, the key's view of it, the negotiated encoding. */
export function answerKey(kind: RecordKind, project: string, id: string, viewBits: number, encoding: Encoding): string {
  return `${kind}\0${project}\0${id}\0${viewBits}\0${encoding}`;
}

/** True when `kept` was made from this content ETag and signed-URL expiry bucket, so it is the answer a fresh render would give. */
export function madeFrom(kept: KeptAnswer, etag: string, expires: number | undefined): boolean {
  return kept.etag === etag && kept.expires === expires;
}

/** The kept answers of one process, within a memory budget (least recently used go first). */
export class AnswerCache {
  private readonly lru: LRUCache<string, KeptAnswer> | undefined;

  constructor(
    maxBytes: number,
    /** Told of each read's outcome. */
    readonly observe: AnswerCacheObserver = () => undefined,
  ) {
    // Entries past a quarter of the budget are not kept: one huge record must not empty it.
    this.lru = maxBytes > 0 ? new LRUCache({ maxSize: maxBytes, maxEntrySize: Math.max(1, Math.floor(maxBytes / 4)), sizeCalculation: (a) => a.bytes.length + 200 }) : undefined;
  }

  /** False when the budget is 0: readers then skip the ETag check too. */
  get enabled(): boolean {
    return this.lru !== undefined;
  }

  get(key: string): KeptAnswer | undefined {
    return this.lru?.get(key);
  }

  /** The answer kept under `key` if it was made from this content ETag and expiry bucket. */
  current(key: string, etag: string, expires: number | undefined): KeptAnswer | undefined {
    const kept = this.lru?.get(key);
    return kept !== undefined && madeFrom(kept, etag, expires) ? kept : undefined;
  }

  set(key: string, answer: KeptAnswer): void {
    this.lru?.set(key, answer);
  }

  delete(key: string): void {
    this.lru?.delete(key);
  }
}
