import { describe, expect, it } from 'vitest';
import { COUNTRY_ALPHA2_CODES, COUNTRY_ALPHA3_CODES } from './countries.js';

describe('country codes', () => {
  it('holds the assigned ISO 3166-1 codes plus the two extras in each list', () => {
    expect(COUNTRY_ALPHA2_CODES).toHaveLength(251);
    expect(COUNTRY_ALPHA3_CODES).toHaveLength(251);
    expect(COUNTRY_ALPHA2_CODES).toEqual(expect.arrayContaining(['AN', 'XK', 'GB', 'US', 'DE']));
    expect(COUNTRY_ALPHA3_CODES).toEqual(expect.arrayContaining(['ANT', 'XKX', 'GBR', 'USA', 'DEU']));
  });

  it('keeps alpha-2 and alpha-3 codes apart', () => {
    expect(COUNTRY_ALPHA2_CODES.every((c) => /^[A-Z]{2}$/.test(c))).toBe(true);
    expect(COUNTRY_ALPHA3_CODES.every((c) => /^[A-Z]{3}$/.test(c))).toBe(true);
  });
});
