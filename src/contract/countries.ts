/**
 * Country code enumerations (SPEC 2.1). The lists live in data/country-codes.json so the
 * same file feeds the schema, the demo generator and the docs; it is read relative to this
 * module so it resolves both from src/ (tsx, vitest) and from dist/ (the build copies data/).
 */
import { readFileSync } from 'node:fs';
import type { Static } from '@sinclair/typebox';
import { StringEnum } from './string-enum.js';

interface CountryCodeFile {
  alpha2: string[];
  alpha3: string[];
}

const file = JSON.parse(
  readFileSync(new URL('./data/country-codes.json', import.meta.url), 'utf8'),
) as CountryCodeFile;

/** ISO 3166-1 alpha-2 codes plus AN and XK. */
export const COUNTRY_ALPHA2_CODES: readonly string[] = Object.freeze([...file.alpha2]);
/** ISO 3166-1 alpha-3 codes plus ANT and XKX. */
export const COUNTRY_ALPHA3_CODES: readonly string[] = Object.freeze([...file.alpha3]);

export const CountryAlpha2 = StringEnum(COUNTRY_ALPHA2_CODES, {
  title: 'CountryAlpha2',
  description: 'ISO 3166-1 alpha-2 country code (plus AN and XK)',
});
export type CountryAlpha2 = Static<typeof CountryAlpha2>;

export const CountryAlpha3 = StringEnum(COUNTRY_ALPHA3_CODES, {
  title: 'CountryAlpha3',
  description: 'ISO 3166-1 alpha-3 country code (plus ANT and XKX)',
});
export type CountryAlpha3 = Static<typeof CountryAlpha3>;
