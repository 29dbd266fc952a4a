import { beforeAll, describe, expect, it } from 'vitest';
import { ATTRIBUTE_PATHS, RULE_DATA_TYPES, RULE_DOCUMENT_KINDS, RULE_OBJECT_TYPES, RULE_OPERATORS, instantKey } from '../contract/index.js';
import { type Execution, type ExecutionStatus, rollUp } from './executions.js';
import { generateDemo } from './index.js';
import { ALL_RULES, schemaOf } from './rules.js';

describe('the rule catalogue', () => {
  it('uses only attribute paths the contract allows, with schema equal to the path root', () => {
    for (const rule of ALL_RULES) {
      expect(ATTRIBUTE_PATHS.has(rule.path), rule.path).toBe(true);
      expect(rule.path.startsWith(`${schemaOf(rule.path)}/`)).toBe(true);
    }
  });

  it('uses every rule object type, operator and data type', () => {
    expect(new Set(ALL_RULES.map((r) => r.objectType))).toEqual(new Set(RULE_OBJECT_TYPES));
    expect(new Set(ALL_RULES.map((r) => r.operator))).toEqual(new Set(RULE_OPERATORS));
    expect(new Set(ALL_RULES.map((r) => r.dataType))).toEqual(new Set(RULE_DATA_TYPES));
    expect(new Set(ALL_RULES.flatMap((r) => r.documents ?? []))).toEqual(new Set(RULE_DOCUMENT_KINDS));
  });
});

describe('rollUp', () => {
  it('lets error win, then not-valid, then unknown', () => {
    const cases: [ExecutionStatus[], ExecutionStatus][] = [
      [['valid', 'valid'], 'valid'],
      [['valid', 'unknown'], 'unknown'],
      [['unknown', 'not-valid', 'valid'], 'not-valid'],
      [['not-valid', 'error'], 'error'],
    ];
    for (const [input, expected] of cases) expect(rollUp(input)).toBe(expected);
  });
});

describe('demo executions', () => {
  let executions: { customerId: string; record: Execution }[];

  beforeAll(() => {
    executions = [];
    for (const line of generateDemo({ companies: 30, individuals: 30, alerts: 0, heavyCustomerExecutions: 300 })) {
      const env = JSON.parse(line) as { kind: string; customerId: string; record: Execution };
      if (env.kind === 'execution') executions.push(env);
    }
  });

  it('have unique execution ids, shared by their rules', () => {
    expect(new Set(executions.map((e) => e.record.execution_id)).size).toBe(executions.length);
    for (const { record } of executions) {
      for (const s of record.scenario_executions) for (const r of s.rules) expect(r.execution_id).toBe(record.execution_id);
    }
  });

  it('roll statuses up from rules to scenarios to the execution', () => {
    for (const { record } of executions) {
      for (const s of record.scenario_executions) expect(s.scenarioStatus).toBe(rollUp(s.rules.map((r) => r.status)));
      expect(record.execution_status).toBe(rollUp(record.scenario_executions.map((s) => s.scenarioStatus)));
    }
    expect(new Set(executions.map((e) => e.record.execution_status))).toEqual(new Set(['valid', 'not-valid', 'error', 'unknown']));
  });

  it('set last_execution_date to the latest scenario executed_at, string for string', () => {
    for (const { record } of executions) {
      const latest = record.scenario_executions.map((s) => s.executed_at).reduce((a, b) => (instantKey(b) > instantKey(a) ? b : a));
      expect(record.last_execution_date).toBe(latest);
      for (const s of record.scenario_executions) {
        for (const r of s.rules) {
          expect(instantKey(r.created_at) <= instantKey(r.executed_at)).toBe(true);
          expect(instantKey(r.executed_at) <= instantKey(s.executed_at)).toBe(true);
        }
      }
    }
  });

  it('describe each rule with version v1 and the schema of its path', () => {
    for (const { record } of executions) {
      for (const s of record.scenario_executions) {
        for (const r of s.rules) {
          const attribute = (r.rule_data as { attribute: { version: string; schema: string; path: string } }).attribute;
          expect(attribute.version).toBe('v1');
          expect(attribute.schema).toBe(schemaOf(attribute.path));
          expect(r.cms_scenario_id).toBe(s.scenarioId);
        }
      }
    }
  });

  it('spread a customer’s executions over time in order', () => {
    const byCustomer = new Map<string, string[]>();
    for (const e of executions) byCustomer.set(e.customerId, [...(byCustomer.get(e.customerId) ?? []), instantKey(e.record.last_execution_date)]);
    const heavy = [...byCustomer.values()].sort((a, b) => b.length - a.length)[0]!;
    expect(heavy.length).toBe(300);
    expect([...heavy].sort()).toEqual(heavy);
  });
});
