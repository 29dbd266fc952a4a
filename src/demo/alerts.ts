// Alert records (SPEC 2.4). The first alerts cycle through every type, severity, status and
// category so even the smallest demo covers each value; later ones follow realistic weights.
// Type-specific payloads (screening, duplicate, credential results, transactions) are attached
// after the audit replay, since snapshots describe the alert's own fields only.
import type { Faker } from '@faker-js/faker';
import { ALERT_CATEGORIES, ALERT_SEVERITIES, ALERT_STATUSES, ALERT_TYPES } from '../contract/enums.js';
import { type AlertState, replayAlert } from './audits.js';
import { type CredentialName, type ResultItem, credentialResult, ruleDataResult } from './credentials.js';
import { DAY_MS, DEMO_NOW_MS, MINUTE_MS, between, isoAt } from './dates.js';
import { type CustomerIdentity, pickCustomer } from './identities.js';
import { type ProjectContext } from './projects.js';
import { catalogueRule } from './rules.js';
import { screeningProviderData } from './screening.js';
import { Stream, randomUuid, randomAlnum, randomHex, randInt, pick } from './seeding.js';
import type { DocumentSink } from './stored-files.js';
import { alertTransactions } from './transactions.js';
import { alertText, attachmentsFor, closingReason, noteTexts } from './alert-texts.js';

type AlertType = (typeof ALERT_TYPES)[number];

export interface AlertPlan {
  type: AlertType;
  severity: string;
  status: string;
  category: string;
  large: boolean;
}

export interface AlertContext {
  faker: Faker;
  project: ProjectContext;
  sink: DocumentSink;
  extraFields: boolean;
  largeAlertRatio: number;
  /** Alerts per project, to number alerts across projects. */
  perProject: number;
}

// 8 types x 3 severities x 5 statuses: every combination appears once in 120 consecutive alerts.
const COVERAGE_CYCLE = ALERT_TYPES.length * ALERT_SEVERITIES.length * ALERT_STATUSES.length;

// After the coverage cycles: screening and monitoring dominate real alert queues, most alerts end closed.
const TYPE_WEIGHTS: { value: AlertType; weight: number }[] = [
  { value: 'AML Screening', weight: 30 },
  { value: 'Transaction Monitoring', weight: 20 },
  { value: 'Onchain Monitoring', weight: 10 },
  { value: 'KYC Drop-off', weight: 10 },
  { value: 'Fraud', weight: 8 },
  { value: 'IP Screening', weight: 7 },
  { value: 'Email Screening', weight: 7 },
  { value: 'Duplicate', weight: 8 },
];
const SEVERITY_WEIGHTS = [
  { value: 'Low', weight: 4 },
  { value: 'Medium', weight: 4 },
  { value: 'High', weight: 2 },
];
const STATUS_WEIGHTS = [
  { value: 'Closed', weight: 40 },
  { value: 'Open', weight: 20 },
  { value: 'Under Investigation', weight: 15 },
  { value: 'Pending', weight: 10 },
  { value: 'Escalated', weight: 5 },
];
const ONBOARDING_TYPES: readonly AlertType[] = ['KYC Drop-off', 'Duplicate', 'IP Screening', 'Email Screening'];

/** Whether the g-th alert is a large one: exactly `ratio` of alerts, evenly spaced. */
export function isLargeAlert(g: number, ratio: number): boolean {
  return Math.floor((g + 1) * ratio) > Math.floor(g * ratio);
}

/** Type, severity, status and category of the g-th alert of the run. */
export function planAlert(faker: Faker, g: number, ratio: number): AlertPlan {
  const large = isLargeAlert(g, ratio);
  if (g < 2 * COVERAGE_CYCLE) {
    const type = large ? 'AML Screening' : (ALERT_TYPES[g % ALERT_TYPES.length] ?? 'AML Screening');
    return {
      type,
      severity: ALERT_SEVERITIES[g % ALERT_SEVERITIES.length] ?? 'Medium',
      status: ALERT_STATUSES[g % ALERT_STATUSES.length] ?? 'Open',
      // Shifted every 8 alerts so each type meets both categories.
      category: ALERT_CATEGORIES[(g + Math.floor(g / ALERT_TYPES.length)) % ALERT_CATEGORIES.length] ?? 'Onboarding',
      large,
    };
  }
  const type = large ? 'AML Screening' : faker.helpers.weightedArrayElement(TYPE_WEIGHTS);
  return {
    type,
    severity: faker.helpers.weightedArrayElement(SEVERITY_WEIGHTS),
    status: faker.helpers.weightedArrayElement(STATUS_WEIGHTS),
    category: ONBOARDING_TYPES.includes(type) || (type === 'AML Screening' && faker.number.float() < 0.4) ? 'Onboarding' : 'Ongoing monitoring',
    large,
  };
}

function results(faker: Faker, project: ProjectContext, type: AlertType, customer: CustomerIdentity, atMs: number): ResultItem[] | null {
  const cred = (name: CredentialName, passed: boolean): ResultItem => credentialResult(faker, project, name, customer, atMs, passed);
  const failedRule = (slug: string): ResultItem => ruleDataResult(faker, project, catalogueRule(slug), 'not-valid');
  switch (type) {
    case 'KYC Drop-off':
      return [
        cred('IDInformation', true),
        cred('IDImage', true),
        cred('SelfieImage', false),
        { data: { TFHEResult: `0x${randomHex(faker, 96)}` }, status: 'unknown', cmsScenarioId: null },
        failedRule('liveness-match'),
      ];
    case 'AML Screening':
      return [cred('AMLScreeningsResults', false), failedRule('no-sanctions-hits')];
    case 'Duplicate':
      return [cred('IDScanSelfie', true), cred('ProofOfResidence', true), failedRule('no-duplicate-accounts')];
    case 'Fraud':
    case 'IP Screening':
    case 'Email Screening': {
      const signals = {
        ipAddress: faker.internet.ipv4(),
        ipCountry: pick(faker, ['RUS', 'NGA', 'VNM', 'BRA']),
        ipVpn: faker.datatype.boolean(),
        ipScore: randInt(faker, 60, 99),
        emailDomainAgeDays: randInt(faker, 0, 30),
        emailScore: randInt(faker, 55, 99),
        deviceId: randomUuid(faker),
      };
      const slug = type === 'Email Screening' ? 'email-score' : type === 'IP Screening' ? 'ip-country-allowed' : 'ip-score';
      return [{ data: { RulesEngineInputData: signals }, status: 'not-valid', cmsScenarioId: null }, failedRule(slug)];
    }
    case 'Transaction Monitoring':
    case 'Onchain Monitoring':
      return [failedRule(type === 'Onchain Monitoring' ? 'wallet-risk' : 'volume-7d')];
  }
}

function creatorOf(type: AlertType): string {
  if (type === 'Duplicate') return 'system:duplicate-detection';
  if (type === 'Transaction Monitoring' || type === 'Onchain Monitoring') return 'system:transaction-monitoring';
  return type === 'AML Screening' ? 'system:aml-screening' : 'system:rules-engine';
}

function duplicateData(faker: Faker, project: ProjectContext, original: CustomerIdentity, duplicate: CustomerIdentity): Record<string, unknown> {
  const kycFile = (): string => `https://files.example.invalid/${project.id}/kyc/${randomUuid(faker)}.jpg`;
  return {
    original: { customerId: original.id, customerInfo: `${original.name} <${original.email}>`, profilePicture: null, idDocumentUrl: kycFile() },
    duplicate: { customerId: duplicate.id, customerInfo: `${duplicate.name} <${duplicate.email}>`, profilePicture: kycFile(), idDocumentUrl: null },
  };
}

/** The i-th alert of a project. */
export function alertRecord(ctx: AlertContext, i: number): Record<string, unknown> {
  const { faker, project } = ctx;
  faker.seed([project.seed, Stream.alert, project.index, i]);
  const g = project.index * ctx.perProject + i;
  const plan = planAlert(faker, g, ctx.largeAlertRatio);
  const customer = pickCustomer(faker, project);
  const createdMs = between(faker, Math.max(customer.createdMs + DAY_MS, DEMO_NOW_MS - 540 * DAY_MS), DEMO_NOW_MS - 20 * DAY_MS);
  const text = alertText(faker, plan.type, customer);
  const createdBy = creatorOf(plan.type);
  // The alert starts at a severity the rules engine chose; analysts sometimes re-grade it.
  const initialSeverity = faker.number.float() < 0.25 ? pick(faker, ALERT_SEVERITIES) : plan.severity;
  const initial: AlertState = {
    id: randomUuid(faker),
    severity: initialSeverity,
    category: plan.category,
    type: plan.type,
    status: 'Open',
    name: text.name,
    description: faker.number.float() < 0.1 ? null : text.description,
    assignedTo: null,
    seen: false,
    customerId: customer.id,
    cmsProjectId: project.id,
    createdAt: isoAt(createdMs),
    updatedAt: isoAt(createdMs),
    createdBy,
    updatedBy: createdBy,
    reason: null,
    workflowSessionId: plan.category === 'Onboarding' ? `wfs_${randomAlnum(faker, 24, 'lower')}` : null,
    notes: [],
  };
  // A field the contract does not list, on a few alerts: it must be kept and reported.
  if (ctx.extraFields && i % 40 === 11) initial.slaDueAt = isoAt(createdMs + 5 * DAY_MS);
  const { state, audits } = replayAlert(faker, project, ctx.sink, initial, createdMs, {
    status: plan.status,
    severity: plan.severity,
    reason: closingReason(faker, plan.type, plan.status),
    noteTexts: noteTexts(faker, plan.type, randInt(faker, plan.status === 'Open' ? 0 : 1, 3)),
    duplicate: plan.type === 'Duplicate',
    attachments: attachmentsFor(plan.type),
  });
  const hitCount = plan.large ? randInt(faker, 420, 480) : randInt(faker, 2, 14);
  const monitoring = plan.type === 'Transaction Monitoring' || plan.type === 'Onchain Monitoring';
  const duplicateOf = plan.type === 'Duplicate' ? pickCustomer(faker, project) : null;
  const screening =
    plan.type === 'AML Screening'
      ? screeningProviderData({ faker, project, customer, alertId: state.id, alertStatus: plan.status, atMs: createdMs - 5 * MINUTE_MS, hitCount })
      : null;
  const transactions = monitoring
    ? alertTransactions({
        faker, project, customer,
        onchainOnly: plan.type === 'Onchain Monitoring',
        untilMs: createdMs - MINUTE_MS,
        count: randInt(faker, 4, 30),
        withChannel: ctx.extraFields && i % 40 === 6,
      })
    : null;
  return {
    ...state,
    audits,
    screeningProviderData: screening,
    duplicateData: duplicateOf ? duplicateData(faker, project, duplicateOf, customer) : null,
    results: results(faker, project, plan.type, customer, createdMs - DAY_MS),
    transactions,
  };
}
