// Individual customers: the same record shape as companies (the service serves both through the
// company details operation), without ownership or company claims.
import type { Faker } from '@faker-js/faker';
import type { CustomerRecord } from './companies.js';
import { DAY_MS, DEMO_NOW_MS, between, isoAt, pickOffset } from './dates.js';
import { type CustomerDocument, type DocumentContext, proofOfResidence, videoKyc } from './documents.js';
import { customerIdentity } from './identities.js';
import { customerProfile } from './profiles.js';
import { type ProjectContext, pickActor } from './projects.js';
import { Stream, randomAlnum } from './seeding.js';
import type { DocumentSink } from './stored-files.js';

/** The record of the index-th individual customer of a project. */
export function individualRecord(faker: Faker, project: ProjectContext, index: number, sink: DocumentSink): CustomerRecord {
  const customer = customerIdentity(project, 'individual', index);
  faker.seed([project.seed, Stream.individual, project.index, index]);
  const profile = customerProfile(faker, 'individual');
  const createdMs = customer.createdMs;
  const updatedMs = between(faker, createdMs + DAY_MS, DEMO_NOW_MS - DAY_MS);
  const offset = pickOffset(faker, 0.2);
  let documents: CustomerDocument[] | null = null;
  if (profile.onboardingLevel !== 'Sign-up') {
    const ctx: DocumentContext = { faker, project, customer, sink, untilMs: updatedMs };
    documents = [proofOfResidence(ctx)];
    if (faker.number.float() < 0.35) documents.push(videoKyc(ctx));
  }
  return {
    id: customer.id,
    cmsProjectId: project.id,
    externalCustomerId: customer.externalCustomerId,
    riskScore: profile.riskScore,
    type: 'Individual',
    onboardingLevel: profile.onboardingLevel,
    status: profile.status,
    createdAt: isoAt(createdMs, offset),
    updatedAt: isoAt(updatedMs, offset),
    createdBy: 'system:onboarding',
    updatedBy: pickActor(faker, project),
    reason: profile.reason,
    externalId: `kyc_${randomAlnum(faker, 16, 'lower')}`,
    beneficiaries: null,
    companyClaims: null,
    documents,
  };
}
