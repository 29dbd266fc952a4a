// Timestamps for the demo. Everything is anchored on fixed instants (never the clock) so output is
// reproducible, and some timestamps carry a non-UTC offset because the service must return stored
// date-time strings byte for byte, offsets included.
import type { Faker } from '@faker-js/faker';
import { pick } from './seeding.js';

/** The earliest instant any demo record is created. */
export const DEMO_EPOCH_MS = Date.UTC(2022, 0, 3, 8, 0, 0);
/** The "now" of the demo world: nothing happens after it. */
export const DEMO_NOW_MS = Date.UTC(2025, 5, 30, 18, 0, 0);

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

// Offsets seen from clients in Europe, the Americas and Asia; the half-hour one catches code that
// assumes whole hours.
const OFFSETS_MIN = [120, -300, 330, 540, -180, 60] as const;

/** Formats an instant as ISO 8601 in UTC ("Z") or at the given offset in minutes east of UTC. */
export function isoAt(ms: number, offsetMinutes = 0): string {
  if (offsetMinutes === 0) return new Date(ms).toISOString();
  const local = new Date(ms + offsetMinutes * MINUTE_MS).toISOString().slice(0, -1);
  const sign = offsetMinutes > 0 ? '+' : '-';
  const abs = Math.abs(offsetMinutes);
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  const mm = String(abs % 60).padStart(2, '0');
  return `${local}${sign}${hh}:${mm}`;
}

/** Picks an offset: UTC most of the time, otherwise one of a few real-world offsets. */
export function pickOffset(faker: Faker, nonUtcShare: number): number {
  if (faker.number.float() >= nonUtcShare) return 0;
  return pick(faker, OFFSETS_MIN);
}

/** A random instant in [fromMs, toMs], truncated to whole milliseconds. */
export function between(faker: Faker, fromMs: number, toMs: number): number {
  if (toMs <= fromMs) return fromMs;
  return fromMs + Math.floor(faker.number.float() * (toMs - fromMs));
}

/** A calendar date (YYYY-MM-DD) for an instant, in UTC. */
export function dateOnly(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** A wall-clock time (HH:MM:SS) for an instant, in UTC. */
export function timeOnly(ms: number): string {
  return new Date(ms).toISOString().slice(11, 19);
}
