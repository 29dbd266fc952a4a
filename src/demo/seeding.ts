// Deterministic randomness for the demo: every record is generated from its own seed, derived from
// (run seed, project, record kind, index), so a record never depends on how many came before it
// and any id can be recomputed without holding the records that own it.
import { Faker, base, en, type Randomizer } from '@faker-js/faker';

/** Record kinds that own a seed stream; the numbers are part of the output contract, never reorder. */
export const Stream = {
  project: 1,
  company: 2,
  individual: 3,
  execution: 4,
  alert: 5,
  customerId: 6,
  alertId: 7,
} as const;

// Mixes the seed words into 128 bits of state. Faker's own Mersenne Twister spends ~30 µs per
// reseed, which would dominate a million-record run; this costs well under a microsecond.
function mixSeed(words: readonly number[]): [number, number, number, number] {
  let h1 = 0x9e3779b9;
  let h2 = 0x85ebca6b;
  let h3 = 0xc2b2ae35;
  let h4 = 0x27d4eb2f;
  for (const word of words) {
    // Seeds may exceed 32 bits (indices in the millions times a stride); fold the high part in too.
    const low = word >>> 0;
    const high = Math.floor(word / 0x1_0000_0000) >>> 0;
    for (const part of [low, high]) {
      h1 = Math.imul(h1 ^ part, 0xcc9e2d51);
      h1 = (h1 << 15) | (h1 >>> 17);
      h2 = Math.imul(h2 ^ h1, 0x1b873593);
      h3 = Math.imul(h3 ^ ((h2 << 13) | (h2 >>> 19)), 5) + 0xe6546b64;
      h4 = Math.imul(h4 ^ (h3 >>> 16), 0x85ebca6b) ^ part;
    }
  }
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}

/** A small fast generator (SFC32) exposed through faker's Randomizer interface. */
export function createSfc32Randomizer(): Randomizer & { nextUint32(): number } {
  let a = 0;
  let b = 0;
  let c = 0;
  let d = 1;
  const nextUint32 = (): number => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  };
  return {
    nextUint32,
    next: () => nextUint32() / 0x1_0000_0000,
    seed(seed: number | number[]): void {
      [a, b, c, d] = mixSeed(Array.isArray(seed) ? seed : [seed]);
      // Warm-up rounds decorrelate neighbouring seeds such as [s, p, k, 1] and [s, p, k, 2].
      for (let i = 0; i < 12; i += 1) nextUint32();
    },
  };
}

const HEX = '0123456789abcdef';

type FastRandomizer = ReturnType<typeof createSfc32Randomizer>;
const randomizers = new WeakMap<Faker, FastRandomizer>();

/** A faker instance (English, with base data for country codes) driven by the fast seeded randomizer. */
export function createDemoFaker(): Faker {
  const randomizer = createSfc32Randomizer();
  const faker = new Faker({ locale: [en, base], randomizer });
  randomizers.set(faker, randomizer);
  return faker;
}

function rawOf(faker: Faker): FastRandomizer {
  const r = randomizers.get(faker);
  if (!r) throw new Error('not a demo faker: create it with createDemoFaker()');
  return r;
}

function formatUuid(words: readonly number[]): string {
  let out = '';
  for (let i = 0; i < 4; i += 1) {
    let word = words[i] ?? 0;
    if (i === 1) word = (word & 0xffff0fff) | 0x00004000;
    if (i === 2) word = (word & 0x3fffffff) | 0x80000000;
    for (let shift = 28; shift >= 0; shift -= 4) out += HEX[(word >>> shift) & 0xf];
  }
  return `${out.slice(0, 8)}-${out.slice(8, 12)}-${out.slice(12, 16)}-${out.slice(16, 20)}-${out.slice(20)}`;
}

// faker.string.uuid/alphanumeric/hexadecimal pick one character per call through several layers;
// a company record needs dozens of ids, and these take a tenth of the time from the same stream.

/** A random version-4 UUID from the faker's seeded stream. */
export function randomUuid(faker: Faker): string {
  const r = rawOf(faker);
  return formatUuid([r.nextUint32(), r.nextUint32(), r.nextUint32(), r.nextUint32()]);
}

const ALNUM = {
  lower: 'abcdefghijklmnopqrstuvwxyz0123456789',
  upper: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789',
  mixed: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789',
} as const;

/** A random alphanumeric string from the faker's seeded stream. */
export function randomAlnum(faker: Faker, length: number, casing: keyof typeof ALNUM = 'mixed'): string {
  const r = rawOf(faker);
  const chars = ALNUM[casing];
  let out = '';
  for (let i = 0; i < length; i += 1) out += chars[r.nextUint32() % chars.length];
  return out;
}

/** A random lowercase hex string (no prefix) from the faker's seeded stream. */
export function randomHex(faker: Faker, length: number): string {
  const r = rawOf(faker);
  let out = '';
  for (let i = 0; i < length; i += 1) out += HEX[r.nextUint32() & 0xf];
  return out;
}

const idRandomizer = createSfc32Randomizer();

/** A version-4-shaped UUID that is a pure function of the given seed words. */
export function uuidFrom(words: readonly number[]): string {
  idRandomizer.seed([...words]);
  return formatUuid([idRandomizer.nextUint32(), idRandomizer.nextUint32(), idRandomizer.nextUint32(), idRandomizer.nextUint32()]);
}

/** A random integer in [min, max] from the faker's seeded stream (faker.number.int validates its options on every call). */
export function randInt(faker: Faker, min: number, max: number): number {
  return min + Math.floor(rawOf(faker).next() * (max - min + 1));
}

/** A random element of a non-empty array from the faker's seeded stream. */
export function pick<T>(faker: Faker, items: readonly T[]): T {
  if (items.length === 0) throw new RangeError('pick from an empty list');
  return items[Math.floor(rawOf(faker).next() * items.length)] as T;
}
