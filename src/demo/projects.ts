// A project (tenant) of the demo world: its id, the staff who act in it, and the sizes that let
// other records address its customers by index without holding them.
import type { Faker } from '@faker-js/faker';
import { DEMO_EPOCH_MS, isoAt } from './dates.js';
import { personEmail } from './identities.js';
import type { ResolvedDemoOptions } from './options.js';
import { Stream, createDemoFaker, randInt, pick } from './seeding.js';
import * as names from './names.js';

export interface Analyst {
  id: number;
  name: string;
  email: string;
  phone: string;
  createdAt: string;
  active: boolean;
}

export interface ProjectContext {
  id: string;
  index: number;
  seed: number;
  /** The tenant's mail domain, e.g. acme-exchange.example. */
  domain: string;
  analysts: readonly Analyst[];
  /** Automated actors that create and update records. */
  systems: readonly string[];
  companies: number;
  individuals: number;
}

const SYSTEM_ACTORS = ['system:onboarding', 'system:kyb-sync', 'system:rules-engine', 'system:aml-screening', 'system:transaction-monitoring'] as const;

/** Builds the context of project number `index` (its staff depend only on seed and index). */
export function createProject(options: ResolvedDemoOptions, index: number): ProjectContext {
  const id = options.projects[index];
  if (id === undefined) throw new RangeError(`no project ${index}`);
  const faker = createDemoFaker();
  faker.seed([options.seed, Stream.project, index]);
  const domain = `${id.replace(/^proj-/, '')}.example`;
  const analysts: Analyst[] = [];
  for (let i = 0; i < 6; i += 1) analysts.push(makeAnalyst(faker, domain, index, i));
  return {
    id,
    index,
    seed: options.seed,
    domain,
    analysts,
    systems: SYSTEM_ACTORS,
    companies: options.companies,
    individuals: options.individuals,
  };
}

function makeAnalyst(faker: Faker, domain: string, projectIndex: number, i: number): Analyst {
  const first = names.firstName(faker);
  const last = names.lastName(faker);
  return {
    id: 4100 + projectIndex * 100 + i,
    name: `${first} ${last}`,
    email: personEmail(first, last, domain),
    phone: faker.phone.number({ style: 'international' }),
    createdAt: isoAt(DEMO_EPOCH_MS - randInt(faker, 30, 900) * 86_400_000),
    // One inactive account so consumers see user_is_active=false on old searches.
    active: i !== 5,
  };
}

/** An analyst of the project, chosen at random. */
export function pickAnalyst(faker: Faker, project: ProjectContext): Analyst {
  return pick(faker, project.analysts);
}

/** A human or system actor for createdBy/updatedBy fields. */
export function pickActor(faker: Faker, project: ProjectContext, systemShare = 0.4): string {
  if (faker.number.float() < systemShare) return pick(faker, project.systems);
  return pickAnalyst(faker, project).email;
}
