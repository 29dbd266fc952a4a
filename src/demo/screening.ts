// Screening provider data of an AML Screening alert (SPEC 2.4.1): the request as submitted, the
// search outcome with its hits, and detailed entities for the first hits. The outcome follows the
// alert: a closed alert's search was resolved, an escalated one was confirmed.
import type { Faker } from '@faker-js/faker';
import { SCREENING_MATCH_STATUSES } from '../contract/enums.js';
import { HOUR_MS, MINUTE_MS, isoAt } from './dates.js';
import type { CustomerIdentity } from './identities.js';
import { type Analyst, type ProjectContext, pickAnalyst } from './projects.js';
import { screeningEntity, screeningHit } from './screening-hits.js';
import { randomUuid, randomAlnum, randInt, pick } from './seeding.js';

export interface ScreeningInput {
  faker: Faker;
  project: ProjectContext;
  customer: CustomerIdentity;
  alertId: string;
  alertStatus: string;
  /** When the search ran (the alert is raised from it). */
  atMs: number;
  hitCount: number;
}

// Entities are verbose duplicates of their hits; providers return a page of them, not all.
const MAX_ENTITIES = 8;

function user(a: Analyst): Record<string, unknown> {
  return { id: a.id, email: a.email, name: a.name, phone: a.phone, created_at: a.createdAt, user_is_active: a.active };
}

function searchOutcome(faker: Faker, alertStatus: string): string {
  switch (alertStatus) {
    case 'Closed':
      return pick(faker, ['false_positive', 'no_match', 'true_positive_approve', 'true_positive_reject']);
    case 'Escalated':
      return 'true_positive';
    default:
      return faker.number.float() < 0.9 ? 'potential_match' : 'unknown';
  }
}

function hitStatus(faker: Faker, outcome: string): string {
  // Most hits keep the search's verdict; analysts mark individual hits otherwise now and then.
  if (faker.number.float() < 0.8) return outcome;
  return pick(faker, SCREENING_MATCH_STATUSES);
}

/** The screening provider data for an AML Screening alert about the customer. */
export function screeningProviderData(input: ScreeningInput): Record<string, unknown> {
  const { faker, project, customer } = input;
  const entityType = customer.kind === 'company' ? 'company' : 'person';
  const searchId = randInt(faker, 100_000_000, 999_999_999);
  const searchRef = `${Math.floor(input.atMs / 1000)}-${randomAlnum(faker, 8)}`;
  const clientRef = `${project.id}:${customer.externalCustomerId}`;
  const outcome = searchOutcome(faker, input.alertStatus);
  const riskLevel = outcome === 'true_positive' ? 'high' : pick(faker, ['low', 'medium', 'high', 'unknown']);
  const filters = {
    types: ['sanction', 'warning', 'fitness-probity', 'pep', 'adverse-media'],
    birth_year: entityType === 'person' ? randInt(faker, 1950, 2004) : null,
    remove_deceased: 1,
    entity_type: entityType,
    country_codes: entityType === 'company' ? [customer.place.alpha2] : null,
  };
  const hitCtx = { faker, customer, atMs: input.atMs, entityType } as const;
  const hits = Array.from({ length: input.hitCount }, () => screeningHit(hitCtx, hitStatus(faker, outcome)));
  const searcher = pickAnalyst(faker, project);
  const assignee = pickAnalyst(faker, project);
  const tags = [{ name: 'customer', value: customer.externalCustomerId }, { name: 'project', value: project.id }];
  const resolvedMs = input.atMs + randInt(faker, 5, 600) * MINUTE_MS;
  return {
    id: randomUuid(faker),
    customerId: customer.id,
    searchId,
    searchRef,
    searchResult: {
      client_ref: clientRef,
      id: searchId,
      ref: searchRef,
      searcher_id: searcher.id,
      assignee_id: assignee.id,
      filters,
      match_status: outcome,
      risk_level: riskLevel,
      search_term: customer.name,
      submitted_term: customer.name,
      total_hits: hits.length,
      total_matches: hits.filter((h) => h.match_status !== 'no_match').length,
      total_blacklist_hits: 0,
      created_at: isoAt(input.atMs),
      updated_at: isoAt(resolvedMs),
      tags,
      labels: [],
      limit: Math.max(100, hits.length),
      offset: 0,
      searcher: user(searcher),
      assignee: user(assignee),
      hits,
      blacklist_hits: [],
    },
    searchEntities: hits.slice(0, MAX_ENTITIES).map((h) => screeningEntity(faker, h, riskLevel)),
    requestData: {
      search_term: customer.name,
      client_ref: clientRef,
      search_profile: `profile-${project.id.replace(/^proj-/, '')}-default`,
      fuzziness: 0.6,
      offset: 0,
      limit: Math.max(100, hits.length),
      filters,
      tags,
      share_url: 1,
      exact_match: false,
    },
    executionId: randomUuid(faker),
    alertId: input.alertId,
    // Ongoing monitoring re-runs the search daily; a quarter of searches are one-off.
    isMonitored: faker.number.float() < 0.75,
    createdAt: isoAt(input.atMs),
    updatedAt: isoAt(resolvedMs + HOUR_MS),
  };
}
