// The ownership structure of a company: shareholders whose stakes never exceed 100 % in total,
// UBOs only at 25 % or more (the usual regulatory threshold), and directors without a stake.
// The registry view (beneficiaries) and the company's own claim (claim beneficiaries) describe the
// same people, so they are built together.
import type { Faker } from '@faker-js/faker';

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
  const weights = Array.from({ length: n }, () => faker.number.int({ min: 1, max: 10 }));
  const sum = weights.reduce((a, b) => a + b, 0);
  return weights.map((w) => Math.floor((totalBp * w) / sum));
}

function person(faker: Faker, statusOf: () => string): Pick<Beneficiary, 'id' | 'name' | 'email' | 'status'> {
  const first = faker.person.firstName();
  const last = faker.person.lastName();
  return {
    id: faker.string.uuid(),
    name: `${first} ${last}`,
    email: faker.internet.email({ firstName: first, lastName: last, provider: 'mail.example' }).toLowerCase(),
    status: statusOf(),
  };
}

function claimOf(faker: Faker, b: Beneficiary): ClaimBeneficiary {
  return {
    applicantId: faker.string.hexadecimal({ length: 24, casing: 'lower', prefix: '' }),
    type: b.beneficiaryType,
    positions: b.beneficiaryPositions ?? [],
    inRegistry: b.inRegistry,
    // Companies have no identity images; people have a front and usually a back of their ID.
    imageIds: b.customerType === 'Company' ? [] : Array.from({ length: faker.number.int({ min: 1, max: 2 }) }, () => faker.string.uuid()),
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
  const peopleOwners = faker.number.int({ min: 1, max: 3 });
  const companyOwners = faker.helpers.weightedArrayElement([
    { value: 0, weight: 6 },
    { value: 1, weight: 3 },
    { value: 2, weight: 1 },
  ]);
  // Most registers account for every share; some leave a free float or unidentified holders.
  const totalBp = faker.number.float() < 0.7 ? 10_000 : faker.number.int({ min: 6000, max: 9999 });
  const stakes = splitStakes(faker, peopleOwners + companyOwners, totalBp);

  const individuals: Beneficiary[] = [];
  const companies: Beneficiary[] = [];
  stakes.forEach((bp, i) => {
    if (i < peopleOwners) {
      const isUbo = bp >= UBO_THRESHOLD_BP;
      const director = faker.number.float() < 0.4;
      individuals.push({
        ...person(faker, statusOf),
        beneficiaryType: isUbo ? 'ubo' : 'shareholder',
        beneficiaryPositions: director ? ['director', 'shareholder'] : ['shareholder'],
        ownershipPercentage: bp / 100,
        inRegistry: true,
        customerType: 'Individual',
      });
    } else {
      const holding = `${faker.person.lastName()} ${faker.helpers.arrayElement(HOLDING_SUFFIXES)}`;
      companies.push({
        id: faker.string.uuid(),
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
  const representatives = faker.number.int({ min: 0, max: 2 });
  for (let i = 0; i < representatives; i += 1) {
    individuals.push({
      ...person(faker, statusOf),
      beneficiaryType: 'representative',
      beneficiaryPositions: faker.number.float() < 0.7 ? ['director'] : ['other'],
      ownershipPercentage: 0,
      // Newly appointed directors are often not yet filed with the registry.
      inRegistry: faker.number.float() < 0.8,
      customerType: 'Individual',
    });
  }
  const all = [...individuals, ...companies];
  return {
    individualBeneficiaries: individuals,
    companyBeneficiaries: companies.length > 0 ? companies : null,
    claimBeneficiaries: all.map((b) => claimOf(faker, b)),
  };
}
