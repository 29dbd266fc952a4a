// The identity of a customer (id, name, country, onboarding date) as a pure function of its
// position in the project. Alerts and executions need the name and id of customers they refer
// to; recomputing them here keeps memory flat no matter how many customers exist.
import type { Faker } from '@faker-js/faker';
import { DEMO_EPOCH_MS, DEMO_NOW_MS, DAY_MS, between } from './dates.js';
import { type Place, pickPlace } from './places.js';
import type { ProjectContext } from './projects.js';
import { Stream, createDemoFaker, uuidFrom, randInt, pick } from './seeding.js';
import * as names from './names.js';

export type CustomerKind = 'company' | 'individual';

export interface CustomerIdentity {
  kind: CustomerKind;
  /** Position among the project's customers of this kind. */
  index: number;
  id: string;
  name: string;
  email: string;
  place: Place;
  externalCustomerId: string;
  /** When onboarding started: every record about the customer is later than this. */
  createdMs: number;
  firstName: string;
  lastName: string;
}

const INDUSTRY_WORDS = ['Capital', 'Logistics', 'Trading', 'Technologies', 'Holdings', 'Ventures', 'Payments', 'Partners', 'Digital', 'Commodities', 'Software', 'Labs', 'Consulting', 'Finance', 'Asset Management', 'Imports', 'Shipping', 'Energy', 'Foods', 'Analytics'];

// A private instance: callers are usually in the middle of their own seeded stream, which a
// shared instance would disturb.
const identityFaker = createDemoFaker();

/** The identity of a company or individual customer of a project. */
export function customerIdentity(project: ProjectContext, kind: CustomerKind, index: number): CustomerIdentity {
  const kindCode = kind === 'company' ? 0 : 1;
  const faker = identityFaker;
  faker.seed([project.seed, Stream.customerId, project.index, kindCode, index]);
  const place = pickPlace(faker);
  const firstName = names.firstName(faker);
  const lastName = names.lastName(faker);
  const name = kind === 'company' ? companyName(faker, place, lastName) : `${firstName} ${lastName}`;
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '').slice(0, 18) || 'customer';
  const email = kind === 'company' ? `compliance@${slug}.example` : personEmail(firstName, lastName, 'mail.example', String(index % 97));
  const prefix = project.id.replace(/^proj-/, '').split('-')[0]?.toUpperCase() ?? 'DEMO';
  return {
    kind,
    index,
    // The extra word keeps the id stream apart from the faker stream seeded with the same words.
    id: uuidFrom([project.seed, Stream.customerId, project.index, kindCode, index, 1]),
    name,
    email,
    place,
    externalCustomerId: `${prefix}-${kind === 'company' ? 'B' : 'P'}-${String(index).padStart(7, '0')}`,
    // Leave at least two months before "now" so every customer has some history.
    createdMs: between(faker, DEMO_EPOCH_MS, DEMO_NOW_MS - 60 * DAY_MS),
    firstName,
    lastName,
  };
}

/** A plausible address for a person; names are reduced to ASCII letters so the address is valid. */
export function personEmail(firstName: string, lastName: string, domain: string, suffix = ''): string {
  const clean = (n: string): string => n.normalize('NFD').toLowerCase().replace(/[^a-z]/g, '');
  return `${clean(firstName)}.${clean(lastName)}${suffix}@${domain}`;
}

function companyName(faker: Faker, place: Place, lastName: string): string {
  const suffix = pick(faker, place.companySuffixes);
  const word = pick(faker, INDUSTRY_WORDS);
  const lead = faker.number.float() < 0.5 ? lastName : capitalise(faker.word.adjective());
  return `${lead} ${word} ${suffix}`;
}

function capitalise(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** The n-th customer of a project counting companies first, then individuals. */
export function customerAt(project: ProjectContext, n: number): CustomerIdentity {
  return n < project.companies ? customerIdentity(project, 'company', n) : customerIdentity(project, 'individual', n - project.companies);
}

/** A random customer of the project (companies and individuals alike). */
export function pickCustomer(faker: Faker, project: ProjectContext): CustomerIdentity {
  const total = project.companies + project.individuals;
  if (total === 0) throw new RangeError(`project ${project.id} has no customers to refer to`);
  return customerAt(project, randInt(faker, 0, total - 1));
}
