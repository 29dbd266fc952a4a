// The ownership structure of a company: shareholders whose stakes never exceed 100 % in total,
// UBOs only at 25 % or more (the usual regulatory threshold), and directors without a stake.
// The registry view (beneficiaries) and the company's own claim (claim beneficiaries) describe the
// same people, so they are built together.
import type { Faker } from '@faker-js/faker';
import { personEmail } from './identities.js';
import { randomUuid, randomHex, randInt, pick } from './seeding.js';
import * as names from './names.js';

export interface Beneficiary {
  id: string;
  beneficiaryType: 'ubo' | 'shareholder' | 'representative';
  name: string;
  email: string;
  beneficiaryPositions: string[] | null;
  ownershipPercentage: number;
  inRegistry: boolean;
  status: string;
  customerType: 'Individual' | 'Company';
}

export interface ClaimBeneficiary {
  applicantId: string;
  type: Beneficiary['beneficiaryType'];
  positions: string[];
  inRegistry: boolean;
  imageIds: string[];
  shareSize: number;
}

export interface Ownership {
  individualBeneficiaries: Beneficiary[];
  companyBeneficiaries: Beneficiary[] | null;
  claimBeneficiaries: ClaimBeneficiary[];
}

const UBO_THRESHOLD_BP = 2500;
const HOLDING_SUFFIXES = ['Holdings Ltd', 'Investments S.A.', 'Capital GmbH', 'Ventures LLC', 'Group B.V.'];

/** Splits at most `totalBp` basis points into n stakes, flooring so the sum never exceeds it. */
export function splitStakes(faker: Faker, n: number, totalBp: number): number[] {
  const weights = Array.from({ length: n }, () => randInt(faker, 1, 10));
  const sum = weights.reduce((a, b) => a + b, 0);
  return weights.map((w) => Math.floor((totalBp * w) / sum));
}

function person(faker: Faker, fields: Pick<Beneficiary, 'beneficiaryType' | 'beneficiaryPositions' | 'ownershipPercentage' | 'inRegistry' | 'status'>): Beneficiary {
  const first = names.firstName(faker);
  const last = names.lastName(faker);
  return {
    id: randomUuid(faker),
    beneficiaryType: fields.beneficiaryType,
    name: `${first} ${last}`,
    email: personEmail(first, last, 'mail.example', String(randInt(faker, 1, 99))),
    beneficiaryPositions: fields.beneficiaryPositions,
    ownershipPercentage: fields.ownershipPercentage,
    inRegistry: fields.inRegistry,
    status: fields.status,
    customerType: 'Individual',
  };
}

function claimOf(faker: Faker, b: Beneficiary): ClaimBeneficiary {
  return {
    applicantId: randomHex(faker, 24),
    type: b.beneficiaryType,
    positions: b.beneficiaryPositions ?? [],
    inRegistry: b.inRegistry,
    // Companies have no identity images; people have a front and usually a back of their ID.
    imageIds: b.customerType === 'Company' ? [] : Array.from({ length: faker.number.float() < 0.8 ? 1 : 2 }, () => randomUuid(faker)),
    shareSize: b.ownershipPercentage,
  };
}

/** Builds the owners and directors of a company; `highRisk` makes reviews and escalations likelier. */
export function companyOwnership(faker: Faker, highRisk: boolean): Ownership {
  const statusOf = (): string =>
    faker.helpers.weightedArrayElement([
      { value: 'Active', weight: highRisk ? 5 : 20 },
      { value: 'To be reviewed', weight: 2 },
      { value: 'Escalated', weight: highRisk ? 2 : 0.2 },
      { value: 'No status', weight: 1 },
    ]);
  // Most small companies have one or two owners; holding companies and boards are less common.
  const peopleOwners = faker.helpers.weightedArrayElement([
    { value: 1, weight: 45 },
    { value: 2, weight: 40 },
    { value: 3, weight: 15 },
  ]);
  const companyOwners = faker.helpers.weightedArrayElement([
    { value: 0, weight: 75 },
    { value: 1, weight: 20 },
    { value: 2, weight: 5 },
  ]);
  // Most registers account for every share; some leave a free float or unidentified holders.
  const totalBp = faker.number.float() < 0.7 ? 10_000 : randInt(faker, 6000, 9999);
  const stakes = splitStakes(faker, peopleOwners + companyOwners, totalBp);

  const individuals: Beneficiary[] = [];
  const companies: Beneficiary[] = [];
  stakes.forEach((bp, i) => {
    if (i < peopleOwners) {
      const isUbo = bp >= UBO_THRESHOLD_BP;
      const director = faker.number.float() < 0.4;
      individuals.push(
        person(faker, {
          beneficiaryType: isUbo ? 'ubo' : 'shareholder',
          beneficiaryPositions: director ? ['director', 'shareholder'] : ['shareholder'],
          ownershipPercentage: bp / 100,
          inRegistry: true,
          status: statusOf(),
        }),
      );
    } else {
      const holding = `${names.lastName(faker)} ${pick(faker, HOLDING_SUFFIXES)}`;
      companies.push({
        id: randomUuid(faker),
        beneficiaryType: 'shareholder',
        name: holding,
        email: `corporate@${holding.toLowerCase().replace(/[^a-z]+/g, '')}.example`,
        beneficiaryPositions: ['shareholder'],
        ownershipPercentage: bp / 100,
        inRegistry: faker.number.float() < 0.9,
        status: statusOf(),
        customerType: 'Company',
      });
    }
  });
  const representatives = faker.helpers.weightedArrayElement([
    { value: 0, weight: 60 },
    { value: 1, weight: 35 },
    { value: 2, weight: 5 },
  ]);
  for (let i = 0; i < representatives; i += 1) {
    individuals.push(
      person(faker, {
        beneficiaryType: 'representative',
        beneficiaryPositions: faker.number.float() < 0.7 ? ['director'] : ['other'],
        ownershipPercentage: 0,
        // Newly appointed directors are often not yet filed with the registry.
        inRegistry: faker.number.float() < 0.8,
        status: statusOf(),
      }),
    );
  }
  const all = [...individuals, ...companies];
  return {
    individualBeneficiaries: individuals,
    companyBeneficiaries: companies.length > 0 ? companies : null,
    claimBeneficiaries: all.map((b) => claimOf(faker, b)),
  };
}
