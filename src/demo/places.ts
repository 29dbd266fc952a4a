// Countries the demo customers live in. A curated list keeps addresses coherent (a Berlin company
// gets a German phone prefix and postcode).
import type { Faker } from '@faker-js/faker';
import { pick } from './seeding.js';

export interface Place {
  alpha3: string;
  alpha2: string;
  name: string;
  cities: readonly string[];
  phonePrefix: string;
  /** Postcode template: '#' becomes a digit, '?' an uppercase letter. */
  postcode: string;
  companySuffixes: readonly string[];
  registry: string;
}

const PLACES: readonly Place[] = [
  { alpha3: 'GBR', alpha2: 'GB', name: 'United Kingdom', cities: ['London', 'Manchester', 'Edinburgh', 'Bristol'], phonePrefix: '+44 20', postcode: '?# #??', companySuffixes: ['Ltd', 'Limited', 'PLC', 'LLP'], registry: 'Companies House' },
  { alpha3: 'DEU', alpha2: 'DE', name: 'Germany', cities: ['Berlin', 'Munich', 'Hamburg', 'Frankfurt am Main'], phonePrefix: '+49 30', postcode: '#####', companySuffixes: ['GmbH', 'AG', 'UG'], registry: 'Handelsregister' },
  { alpha3: 'FRA', alpha2: 'FR', name: 'France', cities: ['Paris', 'Lyon', 'Marseille', 'Lille'], phonePrefix: '+33 1', postcode: '#####', companySuffixes: ['SAS', 'SARL', 'SA'], registry: 'Registre du commerce et des sociétés' },
  { alpha3: 'NLD', alpha2: 'NL', name: 'Netherlands', cities: ['Amsterdam', 'Rotterdam', 'Utrecht', 'Eindhoven'], phonePrefix: '+31 20', postcode: '#### ??', companySuffixes: ['B.V.', 'N.V.'], registry: 'Kamer van Koophandel' },
  { alpha3: 'IRL', alpha2: 'IE', name: 'Ireland', cities: ['Dublin', 'Cork', 'Galway'], phonePrefix: '+353 1', postcode: 'D## ?#??', companySuffixes: ['Ltd', 'DAC', 'Unlimited Company'], registry: 'Companies Registration Office' },
  { alpha3: 'CHE', alpha2: 'CH', name: 'Switzerland', cities: ['Zurich', 'Geneva', 'Zug', 'Basel'], phonePrefix: '+41 44', postcode: '####', companySuffixes: ['AG', 'GmbH', 'SA'], registry: 'Handelsregister / Registre du commerce' },
  { alpha3: 'EST', alpha2: 'EE', name: 'Estonia', cities: ['Tallinn', 'Tartu'], phonePrefix: '+372 6', postcode: '#####', companySuffixes: ['OÜ', 'AS'], registry: 'e-Business Register' },
  { alpha3: 'LTU', alpha2: 'LT', name: 'Lithuania', cities: ['Vilnius', 'Kaunas'], phonePrefix: '+370 5', postcode: 'LT-#####', companySuffixes: ['UAB', 'AB'], registry: 'Register of Legal Entities' },
  { alpha3: 'MLT', alpha2: 'MT', name: 'Malta', cities: ['Valletta', 'Sliema', "St. Julian's"], phonePrefix: '+356 21', postcode: '??? ####', companySuffixes: ['Ltd', 'p.l.c.'], registry: 'Malta Business Registry' },
  { alpha3: 'CYP', alpha2: 'CY', name: 'Cyprus', cities: ['Limassol', 'Nicosia', 'Larnaca'], phonePrefix: '+357 25', postcode: '####', companySuffixes: ['Ltd', 'Public Ltd'], registry: 'Registrar of Companies' },
  { alpha3: 'LUX', alpha2: 'LU', name: 'Luxembourg', cities: ['Luxembourg', 'Esch-sur-Alzette'], phonePrefix: '+352 2', postcode: 'L-####', companySuffixes: ['S.A.', 'S.à r.l.'], registry: 'Luxembourg Business Registers' },
  { alpha3: 'ESP', alpha2: 'ES', name: 'Spain', cities: ['Madrid', 'Barcelona', 'Valencia'], phonePrefix: '+34 91', postcode: '#####', companySuffixes: ['S.L.', 'S.A.'], registry: 'Registro Mercantil' },
  { alpha3: 'USA', alpha2: 'US', name: 'United States', cities: ['New York', 'Wilmington', 'Austin', 'San Francisco', 'Miami'], phonePrefix: '+1 212', postcode: '#####', companySuffixes: ['Inc.', 'LLC', 'Corp.'], registry: 'Delaware Division of Corporations' },
  { alpha3: 'CAN', alpha2: 'CA', name: 'Canada', cities: ['Toronto', 'Vancouver', 'Montreal'], phonePrefix: '+1 416', postcode: '?#? #?#', companySuffixes: ['Inc.', 'Ltd.', 'Corp.'], registry: 'Corporations Canada' },
  { alpha3: 'SGP', alpha2: 'SG', name: 'Singapore', cities: ['Singapore'], phonePrefix: '+65 6', postcode: '######', companySuffixes: ['Pte. Ltd.', 'Ltd.'], registry: 'ACRA' },
  { alpha3: 'HKG', alpha2: 'HK', name: 'Hong Kong', cities: ['Hong Kong', 'Kowloon'], phonePrefix: '+852 2', postcode: '000000', companySuffixes: ['Limited', 'Ltd'], registry: 'Companies Registry' },
  { alpha3: 'ARE', alpha2: 'AE', name: 'United Arab Emirates', cities: ['Dubai', 'Abu Dhabi'], phonePrefix: '+971 4', postcode: '00000', companySuffixes: ['FZ-LLC', 'LLC', 'DMCC'], registry: 'DIFC Registrar of Companies' },
  { alpha3: 'AUS', alpha2: 'AU', name: 'Australia', cities: ['Sydney', 'Melbourne', 'Brisbane'], phonePrefix: '+61 2', postcode: '####', companySuffixes: ['Pty Ltd', 'Ltd'], registry: 'ASIC' },
  { alpha3: 'BRA', alpha2: 'BR', name: 'Brazil', cities: ['São Paulo', 'Rio de Janeiro'], phonePrefix: '+55 11', postcode: '#####-###', companySuffixes: ['Ltda.', 'S.A.'], registry: 'Junta Comercial' },
  { alpha3: 'POL', alpha2: 'PL', name: 'Poland', cities: ['Warsaw', 'Kraków', 'Wrocław'], phonePrefix: '+48 22', postcode: '##-###', companySuffixes: ['sp. z o.o.', 'S.A.'], registry: 'Krajowy Rejestr Sądowy' },
];

// Jurisdictions that screening rules commonly treat as high risk (alpha-3 to alpha-2); used for
// $in/$nin rule values and for the countries of screening hits.
export const HIGH_RISK_COUNTRIES: Readonly<Record<string, string>> = {
  IRN: 'IR', PRK: 'KP', SYR: 'SY', CUB: 'CU', RUS: 'RU', BLR: 'BY', MMR: 'MM', VEN: 'VE',
};
export const HIGH_RISK_ALPHA3: readonly string[] = Object.keys(HIGH_RISK_COUNTRIES);

/** A customer's home country: a curated place most of the time. */
export function pickPlace(faker: Faker): Place {
  return pick(faker, PLACES);
}

/** A postcode following the place's template. */
export function postcodeFor(faker: Faker, place: Place): string {
  return faker.helpers.replaceSymbols(place.postcode);
}

/** A phone number with the place's prefix. */
export function phoneFor(faker: Faker, place: Place): string {
  return `${place.phonePrefix} ${faker.string.numeric(4)} ${faker.string.numeric(4)}`;
}
