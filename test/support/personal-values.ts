/**
 * The classified values of parsed records, found by walking the objects (not the bytes): what a
 * view must not show, and the record as that view should show it.
 */
import { FIELD_CLASSES, MASKS, MASK_ORDER } from '../../src/contract/field-classes.js';
import type { FieldPlace } from '../../src/wire/json-ranges.js';
import { placesOf, type RecordKind } from '../../src/wire/redaction.js';

const MASK_VALUES = MASK_ORDER.map((m) => JSON.parse(MASKS[m]) as unknown);

/** `value` with the fields of the classes in `bits` masked; every string inside a withheld personal value goes to `personal`. */
export function masked(value: unknown, place: FieldPlace | undefined, bits: number, personal?: Set<string>): unknown {
  if (place === undefined) return value;
  if (place.mark !== undefined && (place.mark.bit & bits) !== 0) {
    if (personal !== undefined && place.mark.bit === FIELD_CLASSES.pii.bit) stringsOf(value, personal);
    // A withheld value inside screening data is personal as well when its class is screening.
    if (personal !== undefined && place.mark.bit === FIELD_CLASSES.screening.bit) personalInside(value, place, personal);
    return value === null && MASK_ORDER[place.mark.mask] === 'null' ? null : MASK_VALUES[place.mark.mask];
  }
  if (Array.isArray(value)) return value.map((v) => masked(v, place.items, bits, personal));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = masked(v, place.members?.get(k) ?? place.anyMember, bits, personal);
    return out;
  }
  return value;
}

function personalInside(value: unknown, place: FieldPlace, personal: Set<string>): void {
  masked(value, { ...place, mark: undefined }, FIELD_CLASSES.pii.bit, personal);
}

function stringsOf(value: unknown, out: Set<string>): void {
  if (typeof value === 'string') out.add(value);
  else if (Array.isArray(value)) for (const v of value) stringsOf(v, out);
  else if (value !== null && typeof value === 'object') for (const v of Object.values(value)) stringsOf(v, out);
}

/** A record of a kind as `bits` shows it. */
export function shownAs(kind: RecordKind, record: unknown, bits: number): unknown {
  return masked(record, placesOf(kind), bits);
}

/**
 * The personal strings (3 characters or more) of some records: each string inside a personal
 * field that stands nowhere else, in no field of any class but pii of any of them (a country, a
 * company name a beneficiary shares with a listed company are not personal by where they are).
 */
export function personalStrings(records: { kind: RecordKind; record: unknown }[]): string[] {
  const personal = new Set<string>();
  const rest: string[] = [];
  for (const { kind, record } of records) rest.push(JSON.stringify(masked(record, placesOf(kind), FIELD_CLASSES.pii.bit, personal)));
  const elsewhere = rest.join('\n');
  return [...personal].filter((s) => s.length >= 3 && !elsewhere.includes(JSON.stringify(s).slice(1, -1)));
}
