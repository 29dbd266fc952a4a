// The compliance profile of a customer: risk score, onboarding level and status chosen together so
// they tell a plausible story (a Sign-up has no status yet, a Rejected customer failed a check and
// the reason says which).
import type { Faker } from '@faker-js/faker';
import type { CustomerKind } from './identities.js';
import { pick } from './seeding.js';

export interface Profile {
  riskScore: 'Low' | 'Medium' | 'High' | 'No risk';
  onboardingLevel: string;
  status: string;
  reason: string;
}

const FINISHED_STATUSES = [
  { value: 'Active', weight: 80 },
  { value: 'Dormant', weight: 7 },
  { value: 'Terminated', weight: 3 },
  { value: 'To be reviewed', weight: 5 },
  { value: 'Escalated', weight: 3 },
  { value: 'Rejected', weight: 2 },
];

const IN_PROGRESS_STATUSES = [
  { value: 'To be reviewed', weight: 10 },
  { value: 'No status', weight: 8 },
  { value: 'Failed', weight: 3 },
  { value: 'Escalated', weight: 2 },
  { value: 'Rejected', weight: 2 },
  { value: 'Active', weight: 2 },
];

const REASONS: Record<string, readonly string[]> = {
  Active: ['All onboarding checks passed', 'Periodic review completed without findings', 'Approved by compliance officer after document review'],
  Dormant: ['No account activity for 12 months', 'Customer requested temporary suspension'],
  Terminated: ['Relationship ended at customer request', 'Exited after periodic review: risk appetite exceeded'],
  'To be reviewed': ['Periodic review due', 'Beneficial ownership change reported', 'Screening returned potential matches'],
  Escalated: ['Potential sanctions match escalated to MLRO', 'Source of funds could not be verified', 'Adverse media on a director'],
  Rejected: ['Sanctions list match confirmed', 'Proof of residence rejected: document older than 3 months', 'Company registry data does not match the application'],
  Failed: ['Identity document could not be verified', 'Liveness check failed', 'Registry lookup timed out repeatedly'],
  'No status': ['Awaiting customer input', 'Onboarding not yet started'],
};

/** Chooses a coherent risk score, onboarding level, status and reason for a customer. */
export function customerProfile(faker: Faker, kind: CustomerKind): Profile {
  const riskScore = faker.helpers.weightedArrayElement([
    { value: 'Low' as const, weight: 50 },
    { value: 'Medium' as const, weight: 28 },
    { value: 'High' as const, weight: 12 },
    { value: 'No risk' as const, weight: 10 },
  ]);
  const levels =
    kind === 'company'
      ? [
          { value: 'Onboarded', weight: 60 },
          { value: 'KYB', weight: 12 },
          { value: 'Onboarding', weight: 10 },
          { value: 'AML screening', weight: 6 },
          { value: 'Questionaire', weight: 4 },
          { value: 'KYC', weight: 4 },
          { value: 'Sign-up', weight: 4 },
        ]
      : [
          { value: 'Onboarded', weight: 60 },
          { value: 'KYC', weight: 14 },
          { value: 'Onboarding', weight: 8 },
          { value: 'AML screening', weight: 8 },
          { value: 'Questionaire', weight: 5 },
          { value: 'Sign-up', weight: 5 },
        ];
  const onboardingLevel = faker.helpers.weightedArrayElement(levels);
  let status: string;
  if (onboardingLevel === 'Sign-up') status = 'No status';
  else if (onboardingLevel === 'Onboarded') status = faker.helpers.weightedArrayElement(FINISHED_STATUSES);
  else status = faker.helpers.weightedArrayElement(IN_PROGRESS_STATUSES);
  // High-risk customers that are still active are usually under review.
  if (riskScore === 'High' && status === 'Active' && faker.number.float() < 0.5) status = 'To be reviewed';
  const reason = pick(faker, REASONS[status] ?? ['']);
  return { riskScore, onboardingLevel, status, reason };
}
