// Scenario execution histories (SPEC 2.3). Each execution is a pure function of (customer,
// execution number), so a customer with thousands of executions is streamed one execution at a
// time. Statuses roll up: a rule error makes its scenario and execution an error, otherwise any
// not-valid rule makes them not-valid.
import type { Faker } from '@faker-js/faker';
import { DEMO_NOW_MS, HOUR_MS, isoAt, pickOffset } from './dates.js';
import type { CustomerIdentity } from './identities.js';
import type { ResolvedDemoOptions } from './options.js';
import type { ProjectContext } from './projects.js';
import { type RuleTemplate, type ScenarioTemplate, SCENARIOS, observedValue, scenarioId, schemaOf } from './rules.js';
import { Stream, createSfc32Randomizer, randomUuid, randomHex, randInt, pick } from './seeding.js';

export type ExecutionStatus = 'valid' | 'not-valid' | 'error' | 'unknown';

export interface RuleExecution {
  id: string;
  execution_id: string;
  cms_object_id: string;
  cms_scenario_id: string;
  object_type: string;
  result: Record<string, unknown>;
  rule_data: Record<string, unknown> | null;
  status: ExecutionStatus;
  executed_at: string;
  created_at: string;
  documents: { documentType: string; url: string }[] | null;
}

export interface ScenarioExecution {
  scenarioId: string;
  rules: RuleExecution[];
  scenarioStatus: ExecutionStatus;
  executed_at: string;
}

export interface Execution {
  execution_id: string;
  scenario_executions: ScenarioExecution[];
  execution_status: ExecutionStatus;
  last_execution_date: string;
}

const TAIL_MIN = 100;
const TAIL_MAX = 400;
const countRandomizer = createSfc32Randomizer();

/** How many executions a customer has: a handful usually, hundreds in the tail, thousands for the heavy one. */
export function executionCount(options: ResolvedDemoOptions, project: ProjectContext, customer: CustomerIdentity): number {
  const firstCustomer = project.companies > 0 ? customer.kind === 'company' && customer.index === 0 : customer.index === 0;
  if (project.index === 0 && firstCustomer && options.heavyCustomerExecutions > 0) return options.heavyCustomerExecutions;
  if (options.executionsPerCustomer === 0) return 0;
  countRandomizer.seed([project.seed, Stream.execution, project.index, customer.kind === 'company' ? 0 : 1, customer.index, 0x7fff]);
  if (countRandomizer.next() < options.executionTailRatio) return TAIL_MIN + Math.floor(countRandomizer.next() * (TAIL_MAX - TAIL_MIN + 1));
  return Math.floor(countRandomizer.next() * (2 * options.executionsPerCustomer + 1));
}

/** Combines child statuses: error wins, then not-valid, then unknown; valid only when all are valid. */
export function rollUp(statuses: readonly ExecutionStatus[]): ExecutionStatus {
  if (statuses.includes('error')) return 'error';
  if (statuses.includes('not-valid')) return 'not-valid';
  if (statuses.includes('unknown')) return 'unknown';
  return 'valid';
}

const ERRORS = [
  { code: 'CREDENTIAL_NOT_FOUND', message: 'No credential of the requested type in the KYC session' },
  { code: 'PROVIDER_TIMEOUT', message: 'Screening provider did not answer within 30 s' },
  { code: 'INVALID_PROOF', message: 'Zero-knowledge proof verification failed: public signals mismatch' },
];

function ruleResult(faker: Faker, t: RuleTemplate, status: ExecutionStatus, requestId: number): Record<string, unknown> {
  if (status === 'error') return { passed: null, error: pick(faker, ERRORS), retryable: faker.datatype.boolean() };
  if (status === 'unknown') return { passed: null, pending: true, message: 'Waiting for the customer to share the credential' };
  const passed = status === 'valid';
  if (t.objectType === 'OffChainZKP') return { passed, proofVerified: passed, circuitId: 'credentialAtomicQueryV3-beta.1', requestId };
  if (t.objectType === 'TFHE') return { passed, ciphertextHandle: `0x${randomHex(faker, 64)}`, decryptedResult: passed };
  return { passed, observed: observedValue(t, passed, faker.number.float()), expected: t.value, operator: t.operator, engine: 'rules-engine 4.2.0' };
}

function ruleStatus(faker: Faker): ExecutionStatus {
  return faker.helpers.weightedArrayElement([
    { value: 'valid' as const, weight: 86 },
    { value: 'not-valid' as const, weight: 8 },
    { value: 'error' as const, weight: 3 },
    { value: 'unknown' as const, weight: 3 },
  ]);
}

interface RunContext {
  faker: Faker;
  project: ProjectContext;
  executionId: string;
  offset: number;
}

function ruleExecution(run: RunContext, scenario: ScenarioTemplate, t: RuleTemplate, executedMs: number): RuleExecution {
  const { faker, project } = run;
  const status = ruleStatus(faker);
  const requestId = randInt(faker, 1, 2_000_000_000);
  const short = project.id.replace(/^proj-/, '').replace(/-/g, '_');
  return {
    id: randomUuid(faker),
    execution_id: run.executionId,
    cms_object_id: `rule_${short}_${t.slug.replace(/-/g, '_')}`,
    cms_scenario_id: scenarioId(project.id, scenario),
    object_type: t.objectType,
    result: ruleResult(faker, t, status, requestId),
    rule_data: {
      queryId: randomUuid(faker),
      id: randomUuid(faker),
      requestId,
      attribute: { version: 'v1', schema: schemaOf(t.path), path: t.path },
      value: t.value,
      operator: t.operator,
      type: t.dataType,
    },
    status,
    executed_at: isoAt(executedMs, run.offset),
    // The engine records the job a little before it runs it.
    created_at: isoAt(executedMs - randInt(faker, 5, 900), run.offset),
    documents: t.documents
      ? t.documents.map((kind) => {
          const ext = kind === 'proof_of_residence' ? 'pdf' : 'jpg';
          return { documentType: kind, url: `https://files.example.invalid/${project.id}/kyc/${randomUuid(faker)}.${ext}` };
        })
      : null,
  };
}

function pickScenarios(faker: Faker, customer: CustomerIdentity, first: boolean): ScenarioTemplate[] {
  const eligible = SCENARIOS.filter((s) => s.audience === 'all' || customer.kind === 'individual');
  const count = Math.min(eligible.length, faker.helpers.weightedArrayElement([
    { value: 1, weight: 6 },
    { value: 2, weight: 3 },
    { value: 3, weight: 1 },
  ]));
  const chosen = new Set<ScenarioTemplate>();
  // An individual's first execution is the onboarding check; later ones are mostly monitoring.
  if (first && customer.kind === 'individual' && eligible[0]) chosen.add(eligible[0]);
  while (chosen.size < count) chosen.add(faker.helpers.weightedArrayElement(eligible.map((s) => ({ value: s, weight: s.weight }))));
  return [...chosen];
}

/** The n-th of `total` executions of a customer, spread evenly over the customer's lifetime. */
export function executionRecord(faker: Faker, project: ProjectContext, customer: CustomerIdentity, n: number, total: number): Execution {
  faker.seed([project.seed, Stream.execution, project.index, customer.kind === 'company' ? 0 : 1, customer.index, n]);
  const startMs = customer.createdMs + HOUR_MS;
  const slot = (DEMO_NOW_MS - startMs) / Math.max(total, 1);
  let clock = Math.floor(startMs + slot * (n + faker.number.float() * 0.9));
  const run: RunContext = { faker, project, executionId: randomUuid(faker), offset: pickOffset(faker, 0.25) };
  let latestMs = clock;
  let latest = isoAt(clock, run.offset);
  const scenarioExecutions: ScenarioExecution[] = pickScenarios(faker, customer, n === 0).map((scenario) => {
    const rules = scenario.rules.map((t) => {
      clock += randInt(faker, 20, 4000);
      return ruleExecution(run, scenario, t, clock);
    });
    // A scenario is done when its last rule is; reuse that exact string so they compare equal.
    const executedAt = rules.at(-1)?.executed_at ?? isoAt(clock, run.offset);
    if (clock >= latestMs) {
      latestMs = clock;
      latest = executedAt;
    }
    clock += randInt(faker, 50, 1500);
    return { scenarioId: scenarioId(project.id, scenario), rules, scenarioStatus: rollUp(rules.map((r) => r.status)), executed_at: executedAt };
  });
  return {
    execution_id: run.executionId,
    scenario_executions: scenarioExecutions,
    execution_status: rollUp(scenarioExecutions.map((s) => s.scenarioStatus)),
    last_execution_date: latest,
  };
}
