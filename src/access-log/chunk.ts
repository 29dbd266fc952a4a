/**
 * Access log entries waiting for their write, already in the form the store keeps them (one
 * batch row per project; see batches.ts). Each entry is encoded once, as it arrives,
 * into bytes outside the JS heap: the flush only joins them, and a long outage queues bytes
 * rather than hundreds of thousands of objects for the garbage collector to walk.
 */
import { storableText } from '../contract/storable-text.js';
import type { AccessLogBatch, AccessLogEntry } from './access-log.js';
import { SpareBuffers } from './spare-buffers.js';

/** The buffers of written chunks, filled again by the next ones. */
const spare = new SpareBuffers();

/** An answer that returned the same records as an earlier entry of its batch: that entry's position. */
export interface SameRecords {
  as: number;
}

/**
 * One entry as stored inside a batch: [at, keyId, route, recordId, status, requestId, client],
 * then optional slots told apart by type, so batches written before any of them still read: a
 * summary entry's count (a number), the keys of the records an answer returned (an array), or
 * where in the batch those keys are written already (SameRecords: a list page read again).
 */
export type StoredEntry = [string, string | null, string, string | null, number, string, string, ...(number | string[] | SameRecords)[]];

/** The entries a batch's stored ones stand for, in its project. */
export function entriesOf(stored: readonly StoredEntry[], project: string): AccessLogEntry[] {
  const out: AccessLogEntry[] = [];
  for (const s of stored) {
    const [at, keyId, route, recordId, status, requestId, client] = s;
    const entry: AccessLogEntry = { at, keyId, project, route, recordId, status, requestId, client };
    for (let i = 7; i < s.length; i++) {
      const extra = s[i];
      if (typeof extra === 'number') entry.count = extra;
      else if (Array.isArray(extra)) entry.records = extra;
      else if (typeof extra === 'object' && extra !== null) entry.records = out[extra.as]?.records;
    }
    out.push(entry);
  }
  return out;
}

/**
 * A JSON array of values in a growing buffer whose bytes live outside the JS heap. Its brackets
 * are in the buffer too, so the array's text is one flat string: a string joined around it would
 * be flattened again, into a copy of its size, when the store's driver encodes it.
 */
class OffHeapList {
  private bytes: Buffer;
  private used = 1;

  constructor(capacity: number) {
    this.bytes = spare.take(capacity);
    this.bytes[0] = 0x5b;
  }

  /** Appends one JSON value; returns the bytes it took. */
  add(json: string): number {
    const before = this.used;
    // Three UTF-8 bytes per UTF-16 unit at most, the comma and the closing bracket.
    const need = this.used + 2 + 3 * json.length;
    if (need > this.bytes.length) {
      const grown = spare.take(Math.max(need, 2 * this.bytes.length));
      this.bytes.copy(grown, 0, 0, this.used);
      spare.give(this.bytes);
      this.bytes = grown;
    }
    if (this.used > 1) this.bytes[this.used++] = 0x2c;
    this.used += this.bytes.write(json, this.used);
    return this.used - before;
  }

  /** The values as a JSON array; the list's buffer goes back to the spares, so nothing is added after. */
  close(): string {
    this.bytes[this.used] = 0x5d;
    const json = this.bytes.toString('utf8', 0, this.used + 1);
    spare.give(this.bytes);
    this.bytes = EMPTY;
    this.used = 0;
    return json;
  }
}

const EMPTY = Buffer.alloc(0);

/** One project's entries in a chunk. */
class ProjectPart {
  readonly entries = new OffHeapList(4 * 1024);
  /** The batch's record ids, each once (`seen` holds the strings the entries already carry). */
  readonly records = new OffHeapList(1024);
  readonly seen = new Set<string>();
  /** Entries encoded so far, and where each list of returned keys was first written: a page served again refers to it. */
  entryCount = 0;
  readonly listAt = new Map<string, number>();
  constructor(
    public firstAt: string,
    public lastAt: string,
  ) {}
}

/** The entries of one write: one batch per project, encoded as they arrive. */
export class AccessLogChunk {
  private readonly parts = new Map<string, ProjectPart>();
  /** Entries added. */
  count = 0;
  /** Bytes of the encoded entries and record ids: a list answer's entry can be thousands of times a read's. */
  bytes = 0;
  /** The batches once the chunk is closed. */
  private closed: AccessLogBatch[] | undefined;

  /** Encodes one entry into its project's part. */
  add(e: AccessLogEntry): void {
    if (this.closed !== undefined) throw new Error('an access log chunk takes no entries once its batches are made');
    let part = this.parts.get(e.project);
    if (part === undefined) {
      part = new ProjectPart(e.at, e.at);
      this.parts.set(e.project, part);
    } else if (e.at < part.firstAt) part.firstAt = e.at;
    else if (e.at > part.lastAt) part.lastAt = e.at;
    // A refused request is logged with whatever its URL held: NUL and lone surrogates become
    // U+FFFD, so every store can keep (and PostgreSQL's catch-up can read) the entry.
    const recordId = e.recordId === null ? null : storableText(e.recordId);
    const stored: StoredEntry = [e.at, e.keyId, storableText(e.route), recordId, e.status, storableText(e.requestId), storableText(e.client)];
    if (e.count !== undefined) stored.push(e.count);
    if (recordId !== null) this.bytes += noteRecord(part, recordId);
    const position = part.entryCount++;
    if (e.records === undefined || e.records.length === 0) {
      this.bytes += part.entries.add(JSON.stringify(stored));
    } else {
      const { json, ids } = returnedOf(e.records);
      const first = part.listAt.get(json);
      if (first !== undefined) {
        // The same page again: a few bytes instead of its keys (a busy inbox writes megabytes a second otherwise).
        this.bytes += part.entries.add(`${JSON.stringify(stored).slice(0, -1)},{"as":${first}}]`);
      } else {
        part.listAt.set(json, position);
        this.bytes += part.entries.add(`${JSON.stringify(stored).slice(0, -1)},${json}]`);
        for (const id of ids) this.bytes += noteRecord(part, id);
      }
    }
    this.count++;
  }

  /**
   * One batch per project, in the order each project's first entry arrived. The first call closes
   * the chunk (its buffers go back to the spares); a write tried again gets the same batches.
   */
  batches(): AccessLogBatch[] {
    this.closed ??= [...this.parts].map(([project, part]) => ({
      project,
      firstAt: part.firstAt,
      lastAt: part.lastAt,
      entries: part.entries.close(),
      records: part.records.close(),
    }));
    return this.closed;
  }
}

/** Adds a record id to the part's batch ids unless it is there; returns the bytes it took. */
function noteRecord(part: ProjectPart, id: string): number {
  if (part.seen.has(id)) return 0;
  part.seen.add(id);
  return part.records.add(JSON.stringify(id));
}

// A list page served again hands over the same array of returned keys: serialized once.
const returnedJson = new WeakMap<readonly string[], { json: string; ids: readonly string[] }>();

/** The keys an answer returned as the entry stores them (storable text) and as JSON. */
function returnedOf(records: readonly string[]): { json: string; ids: readonly string[] } {
  let r = returnedJson.get(records);
  if (r === undefined) {
    const json = JSON.stringify(records);
    // JSON.stringify writes NUL and lone surrogates as \u escapes: one search of its output spares a test per key.
    if (json.includes('\\u')) {
      const ids = records.map(storableText);
      r = { json: JSON.stringify(ids), ids };
    } else r = { json, ids: records };
    returnedJson.set(records, r);
  }
  return r;
}
