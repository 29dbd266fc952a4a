/**
 * Byte ranges of the values of classified fields (src/contract/field-classes.ts) in stored JSON,
 * found once at import so a redacted answer is the stored bytes with those ranges replaced.
 * One pass over the tokens (json-tokens), following member names down a tree of places.
 */
import { CLOSE_ARRAY, CLOSE_OBJECT, COMMA, JsonTokens, OPEN_ARRAY, OPEN_OBJECT, SCALAR, STRING, stringText } from './json-tokens.js';
import { FIELD_CLASSES, MASK_ORDER, pathSteps, type ClassifiedField } from '../contract/field-classes.js';

/** The value of a classified field: its bytes, its class's bit and the index of its mask (MASK_ORDER). */
export interface ClassRange {
  start: number;
  end: number;
  bit: number;
  mask: number;
}

/** A node of the tree of classified places; `mark` when the value here belongs to a class. */
export interface FieldPlace {
  members?: Map<string, FieldPlace>;
  anyMember?: FieldPlace;
  items?: FieldPlace;
  mark?: { bit: number; mask: number };
}

/** The place tree of a resource's classified fields; the root is the record object. */
export function fieldPlaces(fields: readonly ClassifiedField[]): FieldPlace {
  const root: FieldPlace = {};
  for (const f of fields) {
    let node = root;
    for (const step of pathSteps(f.path)) {
      if (step === '[]') node = node.items ??= {};
      else if (step === '*') node = node.anyMember ??= {};
      else {
        node.members ??= new Map();
        let next = node.members.get(step);
        if (next === undefined) node.members.set(step, (next = {}));
        node = next;
      }
    }
    if (f.class !== 'keep') node.mark = { bit: FIELD_CLASSES[f.class].bit, mask: MASK_ORDER.indexOf(f.mask) };
  }
  return root;
}

const NULL_MASK = MASK_ORDER.indexOf('null');
const N = 0x6e;

interface Frame {
  isObject: boolean;
  place: FieldPlace;
  /** The place of the current member's value (objects) or of every item (arrays). */
  child: FieldPlace | undefined;
  expectKey: boolean;
  /** Where this object or array starts (a classified value when its place has a mark). */
  markStart: number;
}

/** Whether a value at a marked place gets a range: every value but a null whose mask is null (it already is its own mask). */
function marks(mark: NonNullable<FieldPlace['mark']>, isNull: boolean): boolean {
  return !(isNull && mark.mask === NULL_MASK);
}

/**
 * Whether a parsed JSON value holds anything `findRanges` would mark in its text: walks only the
 * places of the tree, so a record with nothing classified (most executions) skips the byte scan.
 * The value must be the parse of that text with no member name repeated (the importer refuses those).
 */
export function holdsClassified(value: unknown, place: FieldPlace): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) {
    const items = place.items;
    if (items === undefined) return false;
    for (const item of value) if (holdsAt(item, items)) return true;
    return false;
  }
  const members = place.members;
  const any = place.anyMember;
  if (any === undefined) {
    if (members === undefined) return false;
    // Only the named members can hold a classified value: look them up rather than walk every member.
    for (const [name, child] of members) if (Object.hasOwn(value, name) && holdsAt((value as Record<string, unknown>)[name], child)) return true;
    return false;
  }
  for (const name of Object.keys(value)) {
    if (holdsAt((value as Record<string, unknown>)[name], members?.get(name) ?? any)) return true;
  }
  return false;
}

/** Whether the value at a place is marked itself (as the scan marks it) or holds a marked value below. */
function holdsAt(value: unknown, place: FieldPlace): boolean {
  const mark = place.mark;
  if (mark !== undefined && marks(mark, value === null)) return true;
  return holdsClassified(value, place);
}

/** The ranges of every classified value in one JSON text, ordered by start (an enclosing range before the ranges inside it). */
export function findRanges(buf: Buffer, places: FieldPlace): ClassRange[] {
  const out: ClassRange[] = [];
  const stack: Frame[] = [];
  let top: Frame | undefined;
  const t = new JsonTokens(buf);
  for (let kind = t.next(); kind !== 0; kind = t.next()) {
    switch (kind) {
      case STRING:
        if (top !== undefined && top.isObject && top.expectKey) {
          const place = top.place;
          top.child = place.members?.get(stringText(buf, t.start, t.end)) ?? place.anyMember;
          top.expectKey = false;
        } else valueAt(top, t.start, t.end, false);
        break;
      case SCALAR:
        valueAt(top, t.start, t.end, buf[t.start] === N);
        break;
      case OPEN_OBJECT:
      case OPEN_ARRAY: {
        const place = top === undefined ? places : top.child;
        // Nothing classified lies below: pass the whole value by its brackets, not token by token.
        if (place === undefined) {
          t.skipValue();
          break;
        }
        // Classified whole, with nothing marked inside: one range, passed the same way.
        if (place.mark !== undefined && place.members === undefined && place.anyMember === undefined && place.items === undefined) {
          const start = t.start;
          t.skipValue();
          out.push({ start, end: t.end, bit: place.mark.bit, mask: place.mark.mask });
          break;
        }
        if (top !== undefined) stack.push(top);
        const isObject = kind === OPEN_OBJECT;
        top = { isObject, place, child: isObject ? undefined : place.items, expectKey: true, markStart: t.start };
        break;
      }
      case CLOSE_OBJECT:
      case CLOSE_ARRAY: {
        if (top === undefined || top.isObject !== (kind === CLOSE_OBJECT)) {
          throw new SyntaxError(`findRanges: unbalanced '${String.fromCharCode(buf[t.start]!)}' at byte ${t.start}`);
        }
        const mark = top.place.mark;
        if (mark !== undefined) out.push({ start: top.markStart, end: t.end, bit: mark.bit, mask: mark.mask });
        top = stack.pop();
        break;
      }
      case COMMA:
        if (top !== undefined && top.isObject) {
          top.expectKey = true;
          top.child = undefined;
        }
        break;
    }
  }
  if (top !== undefined) throw new SyntaxError('findRanges: unterminated object or array');
  // Objects close inside-out: order by start, the enclosing range first.
  out.sort((a, b) => a.start - b.start || b.end - a.end);
  return out;

  function valueAt(frame: Frame | undefined, start: number, end: number, isNull: boolean): void {
    const mark = frame?.child?.mark;
    if (mark !== undefined && marks(mark, isNull)) out.push({ start, end, bit: mark.bit, mask: mark.mask });
  }
}
