// The words of alerts: titles, descriptions, analyst notes, the files analysts attach and
// closing reasons, per alert type, written the way compliance teams write them.
import type { Faker } from '@faker-js/faker';
import type { Attachment } from './audits.js';
import type { CustomerIdentity } from './identities.js';
import { randInt, pick } from './seeding.js';

interface TypeTexts {
  name: (c: CustomerIdentity, n: number) => string;
  description: string;
  notes: readonly string[];
  closed: readonly string[];
  files: readonly Attachment[];
}

const SCREENING_REPORT: Attachment = { filename: 'screening-report.pdf', mimetype: 'application/pdf', description: 'Exported screening report' };
const ID_COMPARISON: Attachment = { filename: 'id-comparison.jpg', mimetype: 'image/jpeg', description: null };
const SOURCE_OF_FUNDS: Attachment = { filename: 'source-of-funds.pdf', mimetype: 'application/pdf', description: 'Source of funds statement provided by the customer' };
const BANK_STATEMENT: Attachment = { filename: 'bank-statement.pdf', mimetype: 'application/pdf', description: 'Bank statement for the last three months' };
const WALLET_GRAPH: Attachment = { filename: 'wallet-graph.png', mimetype: 'image/png', description: 'Counterparty graph from the blockchain explorer' };
const SCREENSHOT: Attachment = { filename: 'session-screenshot.png', mimetype: 'image/png', description: 'Screenshot of the sign-in session details' };

const TEXTS: Record<string, TypeTexts> = {
  'AML Screening': {
    name: (c) => `Potential sanctions/PEP match: ${c.name}`,
    description: 'Screening against sanctions, PEP and adverse media lists returned potential matches for the customer name.',
    notes: ['Compared date of birth and nationality with the listed entities', 'Requested passport copy to rule out name match', 'Adverse media articles reviewed; not related to the customer'],
    closed: ['False positive: date of birth and nationality differ from the listed person', 'True positive: relationship terminated and SAR filed', 'No match after manual review'],
    files: [SCREENING_REPORT, ID_COMPARISON],
  },
  'IP Screening': {
    name: (_c, n) => `Sign-in from high-risk IP range (${n} attempts)`,
    description: 'The customer signed in from an IP address associated with anonymising proxies in a high-risk jurisdiction.',
    notes: ['IP belongs to a commercial VPN provider', 'Customer confirmed travel; geolocation consistent with stated trip'],
    closed: ['Customer travelling; login pattern explained', 'Account restricted pending re-verification'],
    files: [SCREENSHOT],
  },
  'Email Screening': {
    name: () => 'Disposable email domain detected',
    description: 'The email address used at sign-up belongs to a disposable mailbox provider and has no history.',
    notes: ['Asked customer to confirm a permanent email address', 'Email updated by customer'],
    closed: ['Customer changed to a verified email address', 'Sign-up abandoned; account closed'],
    files: [SCREENSHOT],
  },
  'KYC Drop-off': {
    name: () => 'Customer abandoned KYC at the selfie step',
    description: 'Identity document was captured but the liveness check was not completed within 72 hours.',
    notes: ['Reminder sent to the customer', 'Customer reports camera permission issue on their phone'],
    closed: ['Customer completed KYC on retry', 'Onboarding expired after 30 days'],
    files: [SCREENSHOT, ID_COMPARISON],
  },
  'Onchain Monitoring': {
    name: (_c, n) => `Inbound funds from high-risk wallets (${n} transfers)`,
    description: 'Deposits were traced to wallets with direct exposure to a mixing service.',
    notes: ['Exposure is indirect (2 hops) and below 5 %', 'Requested source of funds for the deposits'],
    closed: ['Exposure indirect and immaterial; no action', 'Funds returned to sender and account offboarded'],
    files: [WALLET_GRAPH, SOURCE_OF_FUNDS],
  },
  Fraud: {
    name: (_c, n) => `Device fingerprint shared with ${n} other accounts`,
    description: 'The device used at onboarding was seen on several other accounts created in the same week.',
    notes: ['Accounts belong to members of one household', 'Linked accounts show identical deposit patterns'],
    closed: ['Household accounts; legitimate', 'Fraud ring confirmed; accounts closed and reported'],
    files: [SCREENSHOT, ID_COMPARISON],
  },
  'Transaction Monitoring': {
    name: (_c, n) => `Possible structuring: ${n} deposits just below the reporting threshold`,
    description: 'Multiple cash-equivalent deposits slightly below 10,000 were received within seven days.',
    notes: ['Customer explained deposits as weekly takings of their shop', 'Bank statements requested for the last 3 months'],
    closed: ['Business activity explains the pattern', 'SAR filed with the FIU'],
    files: [BANK_STATEMENT, SOURCE_OF_FUNDS],
  },
  Duplicate: {
    name: (c) => `Possible duplicate account of ${c.name}`,
    description: 'Face and document data match an existing customer of the same project.',
    notes: ['Customer opened a second account after losing access to the first', 'Selfies compared: same person'],
    closed: ['Duplicate merged into the original account', 'Different people with similar documents'],
    files: [ID_COMPARISON],
  },
};

const NOTE_ENDINGS = ['Evidence saved to the case file.', 'Second reviewer informed.', 'Follow-up scheduled in 7 days.', 'No further information at this point.'];

const FALLBACK: TypeTexts = { name: (c) => `Alert for ${c.name}`, description: 'Raised by the rules engine.', notes: ['Reviewed'], closed: ['Resolved'], files: [] };

/** Title and description of a new alert of the type about the customer. */
export function alertText(faker: Faker, type: string, customer: CustomerIdentity): { name: string; description: string } {
  const t = TEXTS[type] ?? FALLBACK;
  return { name: t.name(customer, randInt(faker, 3, 9)), description: t.description };
}

/** Up to n analyst notes for an alert of the type. */
export function noteTexts(faker: Faker, type: string, n: number): { name: string; description: string | null }[] {
  const t = TEXTS[type] ?? FALLBACK;
  return faker.helpers.arrayElements(t.notes, Math.min(n, t.notes.length)).map((name) => ({
    name,
    description: faker.number.float() < 0.2 ? null : `${name}. ${pick(faker, NOTE_ENDINGS)}`,
  }));
}

/** The reason recorded with the final status; null while nothing was decided. */
export function closingReason(faker: Faker, type: string, status: string): string | null {
  const t = TEXTS[type] ?? FALLBACK;
  switch (status) {
    case 'Closed':
      return pick(faker, t.closed);
    case 'Escalated':
      return 'Escalated to the MLRO for a decision';
    case 'Pending':
      return 'Waiting for documents from the customer';
    default:
      return null;
  }
}

/** Files an analyst would attach to notes on an alert of the type. */
export function attachmentsFor(type: string): readonly Attachment[] {
  return (TEXTS[type] ?? FALLBACK).files;
}
