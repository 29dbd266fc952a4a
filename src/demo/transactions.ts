// Transactions behind Transaction Monitoring and Onchain Monitoring alerts (SPEC 2.4.4). Crypto
// transfers carry a chain, hash and explorer link; fiat ones do not. Amounts are decimal strings
// as the upstream sends them, and a few currency codes come from the odd end of the published
// list (spaces, dots, non-Latin letters) since the service must keep them exactly.
import type { Faker } from '@faker-js/faker';
import currencyCodes from '../contract/data/currency-codes.json' with { type: 'json' };
import { MINUTE_MS, isoAt, pickOffset } from './dates.js';
import type { CustomerIdentity } from './identities.js';
import type { ProjectContext } from './projects.js';
import { randomUuid, randomAlnum, randomHex, randInt, pick } from './seeding.js';
import * as names from './names.js';

interface Chain {
  chainId: string;
  explorer: string;
  assets: readonly string[];
  hash: (faker: Faker) => string;
  address: (faker: Faker) => string;
}

const evmHash = (faker: Faker): string => `0x${randomHex(faker, 64)}`;
const evmAddress = (faker: Faker): string => `0x${randomHex(faker, 40)}`;

const CHAINS: readonly Chain[] = [
  { chainId: '1', explorer: 'https://etherscan.io/tx/', assets: ['ETH', 'USDT', 'USDC', 'DAI'], hash: evmHash, address: evmAddress },
  { chainId: '137', explorer: 'https://polygonscan.com/tx/', assets: ['POL', 'USDC', 'USDT'], hash: evmHash, address: evmAddress },
  { chainId: '8453', explorer: 'https://basescan.org/tx/', assets: ['ETH', 'USDC'], hash: evmHash, address: evmAddress },
  { chainId: '56', explorer: 'https://bscscan.com/tx/', assets: ['BNB', 'USDT'], hash: evmHash, address: evmAddress },
  {
    chainId: 'bip122:000000000019d6689c085ae165831e93',
    explorer: 'https://mempool.space/tx/',
    assets: ['BTC'],
    hash: (f) => randomHex(f, 64),
    address: (f) => `bc1q${randomAlnum(f, 38, 'lower')}`,
  },
];

const FIAT = ['EUR', 'EUR', 'USD', 'USD', 'GBP', 'CHF', 'PLN', 'SEK'];
const CHANNELS = ['mobile-app', 'web', 'api', 'branch'];
const ODD_CODES = currencyCodes.all.filter((c) => /[^A-Z0-9]/.test(c));

export interface TransactionInput {
  faker: Faker;
  project: ProjectContext;
  customer: CustomerIdentity;
  onchainOnly: boolean;
  /** The alert is raised shortly after the last transaction. */
  untilMs: number;
  count: number;
  /** Adds a `channel` (a field the contract leaves open) to every transaction. */
  withChannel: boolean;
}

function decimal(value: number, places: number): string {
  return value.toFixed(places);
}

function cryptoTransaction(input: TransactionInput, atMs: number): Record<string, unknown> {
  const { faker, customer } = input;
  const chain = pick(faker, CHAINS);
  // One transfer in fifty uses an unusual listed token.
  const asset = faker.number.float() < 0.02 ? pick(faker, ODD_CODES) : pick(faker, chain.assets);
  const hash = chain.hash(faker);
  const stable = asset.startsWith('USD') || asset === 'DAI';
  const amount = stable ? faker.number.float({ min: 500, max: 95_000 }) : faker.number.float({ min: 0.05, max: 40 });
  const places = stable ? 2 : 8;
  const networkFee = stable ? faker.number.float({ min: 0.2, max: 15 }) : amount * 0.0004;
  return {
    id: randomUuid(faker),
    transactionDate: isoAt(atMs, pickOffset(faker, 0.2)),
    transactionType: 'crypto',
    customerId: customer.id,
    transactionInfo: {
      hash,
      blockchainChainId: chain.chainId,
      direction: pick(faker, ['IN', 'OUT']),
      amount: decimal(amount, places),
      currencyCode: asset,
      hashUrl: `${chain.explorer}${hash}`,
      transactionAmounts: [
        { fieldName: 'amount', amount: decimal(amount, places), currencyCode: asset },
        { fieldName: 'networkFeeAmount', amount: decimal(networkFee, places), currencyCode: asset },
        { fieldName: 'platformFeeAmount', amount: decimal(amount * 0.001, places), currencyCode: asset },
      ],
      counterparty: {
        address: chain.address(faker),
        riskScore: randInt(faker, 0, 10),
        label: pick(faker, [null, 'exchange', 'mixer', 'darknet market', 'gambling']),
      },
    },
  };
}

function fiatTransaction(input: TransactionInput, atMs: number): Record<string, unknown> {
  const { faker, customer } = input;
  const currency = faker.number.float() < 0.03 ? pick(faker, currencyCodes.fiat) : pick(faker, FIAT);
  // Structuring pattern: many transfers just under the 10,000 reporting threshold.
  const amount = faker.number.float() < 0.5 ? faker.number.float({ min: 9000, max: 9990 }) : faker.number.float({ min: 150, max: 250_000 });
  return {
    id: randomUuid(faker),
    transactionDate: isoAt(atMs, pickOffset(faker, 0.2)),
    transactionType: 'fiat',
    customerId: customer.id,
    transactionInfo: {
      hash: null,
      blockchainChainId: null,
      direction: pick(faker, ['IN', 'OUT']),
      amount: decimal(amount, 2),
      currencyCode: currency,
      hashUrl: null,
      transactionAmounts: [
        { fieldName: 'amount', amount: decimal(amount, 2), currencyCode: currency },
        { fieldName: 'platformFeeAmount', amount: decimal(Math.min(25, amount * 0.002), 2), currencyCode: currency },
      ],
      counterparty: {
        name: `${names.lastName(faker)} ${pick(faker, ['Trading Ltd', 'GmbH', 'LLC', 'S.A.', 'B.V.'])}`,
        iban: faker.finance.iban({ formatted: false }),
        bic: faker.finance.bic(),
      },
    },
  };
}

/** The transactions that triggered a monitoring alert, oldest first, all before `untilMs`. */
export function alertTransactions(input: TransactionInput): Record<string, unknown>[] {
  const { faker, project } = input;
  // Exchanges (even project numbers) see mostly crypto, banks mostly fiat.
  const cryptoShare = input.onchainOnly ? 1 : project.index % 2 === 0 ? 0.75 : 0.2;
  const spanMs = randInt(faker, 30, 60 * 24 * 14) * MINUTE_MS;
  const out: Record<string, unknown>[] = [];
  for (let i = 0; i < input.count; i += 1) {
    const atMs = input.untilMs - spanMs + Math.floor((spanMs * (i + faker.number.float())) / input.count);
    const tx = faker.number.float() < cryptoShare ? cryptoTransaction(input, atMs) : fiatTransaction(input, atMs);
    if (input.withChannel) tx.channel = pick(faker, CHANNELS);
    out.push(tx);
  }
  return out;
}
