/**
 * A record as a key without some field classes' scopes is served it: the stored bytes with the
 * ranges of those classes replaced by their masks, and the document URLs left in it still spliced
 * per request. Built once per record version and view from the ranges marked at import, then kept
 * (bounded), so a repeated redacted read costs what an unredacted one does; its gzip pieces are
 * deflated the first time a gzip answer needs them.
 */
import { LRUCache } from 'lru-cache';
import { ALERT_FIELDS, ALERT_SUMMARY_FIELDS, COMPANY_FIELDS, EXECUTION_FIELDS, FIELD_REVISIONS, MASKS, MASK_ORDER } from '../contract/field-classes.js';
import { fieldPlaces, findRanges, type ClassRange, type FieldPlace } from './json-ranges.js';
import type { Splice } from './json-splices.js';
import type { RecordBytes } from './record-bytes.js';
import { deflateBetweenSplices, hasPieces, parseLayout, type ParsedLayout } from './record-layout.js';

/** The kinds of record whose fields are classified (an alert summary: a row of the alert list). */
export type RecordKind = 'company' | 'alert' | 'alertSummary' | 'execution';

/** What a key is not shown: the bits of the field classes it lacks the scope of, and where those fields are in a kind of record. */
export interface View {
  readonly bits: number;
  readonly kind: RecordKind;
  readonly places: FieldPlace;
  /** Names the view in ETags: its bits and its field list's revision, so an answer masked anew is never taken for an older one. */
  readonly tag: string;
}

const PLACES: Record<RecordKind, FieldPlace> = {
  company: fieldPlaces(COMPANY_FIELDS),
  alert: fieldPlaces(ALERT_FIELDS),
  alertSummary: fieldPlaces(ALERT_SUMMARY_FIELDS),
  execution: fieldPlaces(EXECUTION_FIELDS),
};

/** Where the classified fields of a kind of record are (the import marks their ranges). */
export function placesOf(kind: RecordKind): FieldPlace {
  return PLACES[kind];
}

const views = new Map<string, View>();

/** The bits of the classes that have a field in `place`'s tree. */
function classBits(place: FieldPlace): number {
  let bits = place.mark?.bit ?? 0;
  for (const child of place.members?.values() ?? []) bits |= classBits(child);
  if (place.anyMember !== undefined) bits |= classBits(place.anyMember);
  if (place.items !== undefined) bits |= classBits(place.items);
  return bits;
}

const KIND_BITS: Record<RecordKind, number> = {
  company: classBits(PLACES.company),
  alert: classBits(PLACES.alert),
  alertSummary: classBits(PLACES.alertSummary),
  execution: classBits(PLACES.execution),
};

/** The view of `kind` records that withholds the classes in `bits`; undefined when no field of that kind is withheld. */
export function viewOf(kind: RecordKind, bits: number): View | undefined {
  bits &= KIND_BITS[kind];
  if (bits === 0) return undefined;
  const id = `${kind}:${bits}`;
  let view = views.get(id);
  if (view === undefined) {
    const revision = FIELD_REVISIONS[kind];
    view = Object.freeze({ bits, kind, places: PLACES[kind], tag: revision === 1 ? `r${bits}` : `r${bits}v${revision}` });
    views.set(id, view);
  }
  return view;
}

const MASK_BYTES = MASK_ORDER.map((m) => Buffer.from(MASKS[m]));

/** A record's bytes in one view, with its layout: what render lays out in place of the stored record. */
export interface Redacted {
  record: RecordBytes;
  layout: ParsedLayout;
}

interface Kept {
  body: Buffer;
  splices: Splice[];
  /** Deflate pieces between the splices, filled when a gzip answer first needs them. */
  gzip: { deflated: Buffer; pieces: ParsedLayout['pieces'] } | undefined;
}

// Kept redacted bodies, by record version and view, bounded in bytes; the least recently read go first.
const kept = new LRUCache<string, Kept>({
  maxSize: 64 * 1024 * 1024,
  sizeCalculation: (k) => k.body.length + (k.gzip?.deflated.length ?? 0) + 64,
});
// A layout written before fields were classified, or with another revision of the list: its ranges found by one scan, kept by etag.
const scanned = new LRUCache<string, ClassRange[]>({ max: 10_000 });

/**
 * The record as `view` shows it, from the record's plain bytes and layout (its stored pieces are
 * not needed); a gzip answer also fills its pieces when the stored record has pieces of its own
 * (otherwise it is compressed whole, as the stored one would be).
 */
export function redact(record: RecordBytes, view: View, gzip: boolean): Redacted {
  const id = `${record.etag}:${view.kind}:${view.bits}`;
  let entry = kept.get(id);
  if (entry === undefined) {
    entry = build(record, view);
    kept.set(id, entry);
  }
  const pieces = gzip && hasPieces(record.layout);
  if (pieces && entry.gzip === undefined) {
    entry.gzip = deflateBetweenSplices(entry.body, entry.splices, LEVEL);
    kept.set(id, entry); // its size changed
  }
  const g = pieces ? entry.gzip! : undefined;
  return {
    record: { etag: record.etag, body: entry.body, layout: null, deflated: g?.deflated ?? null },
    layout: { splices: entry.splices, pieces: g?.pieces ?? [], ranges: [], rangesRevision: FIELD_REVISIONS[view.kind] },
  };
}

function build(record: RecordBytes, view: View): Kept {
  const body = record.body;
  if (body === null) throw new Error('a redacted answer needs the record read with its plain bytes');
  const layout = parseLayout(record.layout);
  const ranges = layout.ranges !== undefined && layout.rangesRevision === FIELD_REVISIONS[view.kind] ? layout.ranges : rangesOf(record, body, view);
  const active = withheld(ranges, view.bits);
  // Nothing of the view in this record: its bytes as stored (a gzip answer still gets pieces of its own, as its stored ones were not read).
  if (active.length === 0) return { body, splices: layout.splices, gzip: undefined };
  const parts: Buffer[] = [];
  const splices: Splice[] = [];
  let pos = 0;
  let out = 0;
  let s = 0;
  const copyTo = (end: number) => {
    // The splices before `end` stay, moved by what the masks before them changed in length.
    for (; s < layout.splices.length && layout.splices[s]!.start < end; s++) {
      const sp = layout.splices[s]!;
      if (sp.start < pos) continue; // inside a withheld range
      splices.push({ ...sp, start: out + (sp.start - pos), end: out + (sp.end - pos) });
    }
    parts.push(body.subarray(pos, end));
    out += end - pos;
  };
  for (const r of active) {
    copyTo(r.start);
    const mask = MASK_BYTES[r.mask]!;
    parts.push(mask);
    out += mask.length;
    pos = r.end;
  }
  copyTo(body.length);
  return { body: Buffer.concat(parts, out), splices, gzip: undefined };
}

/** The ranges of the classes in `bits`, leaving out those inside another withheld range. */
export function withheld(ranges: readonly ClassRange[], bits: number): ClassRange[] {
  const out: ClassRange[] = [];
  let end = -1;
  for (const r of ranges) {
    if ((r.bit & bits) === 0 || r.start < end) continue;
    out.push(r);
    end = r.end;
  }
  return out;
}

function rangesOf(record: RecordBytes, body: Buffer, view: View): ClassRange[] {
  const id = `${record.etag}:${view.kind}`;
  let ranges = scanned.get(id);
  if (ranges === undefined) scanned.set(id, (ranges = findRanges(body, view.places)));
  return ranges;
}

// Deflated once per record version and view on the request path: a middle level, for about default's size at half its time.
const LEVEL = 4;
