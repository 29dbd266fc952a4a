// People and street names from faker's English data, picked straight from the lists. faker's own
// person.lastName / location.street expand templates on every call (5-9 µs each); screening hits
// and beneficiaries need thousands of names, so the lists are read once and indexed directly.
import type { Faker } from '@faker-js/faker';
import { en } from '@faker-js/faker';
import { randInt, pick } from './seeding.js';

function list(value: unknown, what: string): readonly string[] {
  const items = Array.isArray(value) ? value : value && typeof value === 'object' ? Object.values(value).flat() : [];
  const strings = items.filter((v): v is string => typeof v === 'string');
  if (strings.length === 0) throw new Error(`faker's English locale has no ${what} list`);
  return strings;
}

const FIRST_NAMES = list(en.person?.first_name, 'first name');
const LAST_NAMES = list(en.person?.last_name, 'last name');
const STREET_SUFFIXES = list(en.location?.street_suffix, 'street suffix');

/** A given name. */
export function firstName(faker: Faker): string {
  return pick(faker, FIRST_NAMES);
}

/** A family name; one in twenty is double-barrelled, as in faker's own English pattern. */
export function lastName(faker: Faker): string {
  const name = pick(faker, LAST_NAMES);
  return faker.number.float() < 0.05 ? `${name}-${pick(faker, LAST_NAMES)}` : name;
}

/** A given name and a family name. */
export function fullName(faker: Faker): string {
  return `${firstName(faker)} ${lastName(faker)}`;
}

/** A street name such as "Conroy Points". */
export function streetName(faker: Faker): string {
  return `${pick(faker, LAST_NAMES)} ${pick(faker, STREET_SUFFIXES)}`;
}

/** A house number of one to four digits. */
export function buildingNumber(faker: Faker): string {
  return String(randInt(faker, 1, faker.number.float() < 0.8 ? 299 : 9999));
}
