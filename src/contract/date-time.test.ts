import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { instantKey, isDateTime, toUtcIso } from './date-time.js';

describe('isDateTime (RFC 3339)', () => {
  it.each([
    '2024-03-01T12:00:00Z',
    '2024-03-01t12:00:00z',
    '2024-03-01T12:00:00+05:30',
    '2024-03-01T12:00:00-00:00',
    '2024-03-01T12:00:00.1Z',
    '2024-03-01T12:00:00.123456789012+01:00',
    '2016-12-31T23:59:60Z',
    '1990-12-31T15:59:60-08:00',
    '2024-02-29T00:00:00Z',
    '2000-02-29T00:00:00Z',
    '0001-01-01T00:00:00Z',
    '9999-12-31T23:59:59.999Z',
  ])('accepts %s', (value) => {
    expect(isDateTime(value)).toBe(true);
  });

  it.each([
    '2023-02-29T00:00:00Z',
    '1900-02-29T00:00:00Z',
    '2024-04-31T00:00:00Z',
    '2024-13-01T00:00:00Z',
    '2024-00-10T00:00:00Z',
    '2024-01-00T00:00:00Z',
    '2024-01-01T25:00:00Z',
    '2024-01-01T24:00:00Z',
    '2024-01-01T12:60:00Z',
    '2024-01-01T12:00:61Z',
    '2024-01-01 12:00:00Z',
    '2024-01-01T12:00:00',
    '2024-01-01T12:00Z',
    '2024-01-01T12:00:00+0100',
    '2024-01-01T12:00:00+24:00',
    '2024-01-01T12:00:00+01:60',
    '2024-01-01T12:00:00.Z',
    '2024-1-01T12:00:00Z',
    '2024-01-01',
    '2024-01-01T12:00:00Zjunk',
    '2024-01-01T12:00:00+01:00 ',
    '+2024-01-01T12:00:00Z',
    '',
  ])('refuses %j', (value) => {
    expect(isDateTime(value)).toBe(false);
  });
});

describe('instantKey', () => {
  it('applies the offset and pads the fraction to nine digits', () => {
    expect(instantKey('2024-03-01T12:00:00+01:00')).toBe('2024-03-01T11:00:00.000000000Z');
    expect(instantKey('2024-03-01t12:00:00.5z')).toBe('2024-03-01T12:00:00.500000000Z');
    expect(instantKey('2024-03-01T05:30:00.123-05:30')).toBe('2024-03-01T11:00:00.123000000Z');
  });

  it('crosses day, month, leap-day and year boundaries', () => {
    expect(instantKey('2024-01-01T00:30:00+01:00')).toBe('2023-12-31T23:30:00.000000000Z');
    expect(instantKey('2024-02-28T23:00:00-02:00')).toBe('2024-02-29T01:00:00.000000000Z');
    expect(instantKey('2023-02-28T23:00:00-02:00')).toBe('2023-03-01T01:00:00.000000000Z');
  });

  it('keeps a leap second as :60, ordered between :59 and the next minute', () => {
    const leap = instantKey('1990-12-31T15:59:60-08:00');
    expect(leap).toBe('1990-12-31T23:59:60.000000000Z');
    expect(instantKey('1990-12-31T23:59:59.999Z') < leap).toBe(true);
    expect(leap < instantKey('1991-01-01T00:00:00Z')).toBe(true);
  });

  it('drops fraction digits beyond nanoseconds', () => {
    expect(instantKey('2024-03-01T12:00:00.1234567899Z')).toBe('2024-03-01T12:00:00.123456789Z');
  });

  it('orders instants written with different offsets by instant', () => {
    const written = [
      '2024-03-01T12:00:00+01:00', // 11:00Z
      '2024-03-01T10:59:59.9Z',
      '2024-03-01T06:30:00-04:00', // 10:30Z
      '2024-03-01T23:00:00+12:00', // 11:00Z, same instant as the first
      '2024-03-01T11:00:00.000000001Z',
    ];
    const sorted = [...written].sort((a, b) => (instantKey(a) < instantKey(b) ? -1 : 1));
    expect(sorted.slice(0, 2)).toEqual(['2024-03-01T06:30:00-04:00', '2024-03-01T10:59:59.9Z']);
    expect(sorted[4]).toBe('2024-03-01T11:00:00.000000001Z');
    expect(instantKey(written[0]!)).toBe(instantKey(written[3]!));
  });

  it('matches the UTC instant for any offset (property)', () => {
    const MIN = Date.UTC(1, 0, 2);
    const MAX = Date.UTC(9998, 11, 30);
    fc.assert(
      fc.property(fc.integer({ min: MIN, max: MAX }), fc.integer({ min: -(23 * 60 + 59), max: 23 * 60 + 59 }), (ms, off) => {
        const local = new Date(ms + off * 60_000).toISOString().slice(0, 23);
        const sign = off < 0 ? '-' : '+';
        const abs = Math.abs(off);
        const text = `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
        expect(instantKey(text)).toBe(`${new Date(ms).toISOString().slice(0, 23)}000000Z`);
      }),
      { numRuns: 2000 },
    );
  });

  it('orders keys as instants are ordered (property)', () => {
    const stamp = fc.tuple(fc.integer({ min: Date.UTC(1970, 0, 1), max: Date.UTC(2100, 0, 1) }), fc.integer({ min: -720, max: 840 }));
    const text = ([ms, off]: [number, number]) => {
      const local = new Date(ms + off * 60_000).toISOString().slice(0, 23);
      const abs = Math.abs(off);
      return `${local}${off < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
    };
    fc.assert(
      fc.property(stamp, stamp, (a, b) => {
        const ka = instantKey(text(a));
        const kb = instantKey(text(b));
        expect(Math.sign(a[0] - b[0])).toBe(ka < kb ? -1 : ka > kb ? 1 : 0);
      }),
      { numRuns: 2000 },
    );
  });

  it('orders instants an offset carries outside four-digit years by instant, at the same width', () => {
    expect(instantKey('0000-01-01T00:00:00+01:00')).toBe('-001-12-31T23:00:00.000000000Z');
    expect(instantKey('9999-12-31T23:30:00-01:00')).toBe('~000-01-01T00:30:00.000000000Z');
    const written = [
      '0000-01-01T00:30:00+01:00', // -0001-12-31T23:30Z
      '0000-01-01T00:00:00+23:59', // -0001-12-31T00:01Z
      '0000-01-01T00:00:00Z',
      '9999-12-31T23:59:60.999Z',
      '9999-12-31T23:00:00-02:00', // 10000-01-01T01:00Z
      '9999-12-31T23:00:00-04:00', // 10000-01-01T03:00Z
      '9999-12-31T23:59:59-23:59', // 10000-01-01T23:58:59Z
    ];
    const keys = written.map(instantKey);
    expect(keys.map((k) => k.length)).toEqual(keys.map(() => 30));
    expect([...written].sort((a, b) => (instantKey(a) < instantKey(b) ? -1 : 1))).toEqual([written[1], written[0], ...written.slice(2)]);
  });

  it('throws on a value that is not a date-time', () => {
    expect(() => instantKey('2023-02-29T00:00:00Z')).toThrow(/not an RFC 3339 date-time/);
  });
});

describe('toUtcIso', () => {
  it('gives the instant of any valid date-time as a Date would, offsets applied', () => {
    expect(toUtcIso('2026-01-01T00:30:00+01:00')).toBe('2025-12-31T23:30:00.000Z');
    expect(toUtcIso('2026-01-01T00:00:00.123456Z')).toBe('2026-01-01T00:00:00.123Z');
  });

  it('reads a leap second as the second after it, never an invalid date', () => {
    expect(toUtcIso('2016-12-31T23:59:60Z')).toBe('2017-01-01T00:00:00.000Z');
    expect(toUtcIso('2016-12-31T23:59:60.5Z')).toBe('2017-01-01T00:00:00.500Z');
    expect(toUtcIso('9999-12-31T23:59:60Z')).toBe('9999-12-31T23:59:59.999Z');
  });

  it('refuses what is not a date-time', () => {
    expect(toUtcIso('2023-02-29T00:00:00Z')).toBeUndefined();
    expect(toUtcIso('yesterday')).toBeUndefined();
  });
});
