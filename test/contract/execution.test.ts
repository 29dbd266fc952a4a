import { describe, expect, it } from 'vitest';
import { fullExecution, minimalExecution } from '../../src/contract/examples.js';
import { deleteAt, setAt } from '../support/json-pointer.js';
import { validateRecord } from '../../src/contract/validators.js';

const ok = { ok: true, warnings: [] };
const check = (record: unknown) => validateRecord('execution', record);
const RULE = '/scenario_executions/0/rules/0';

describe('scenario execution (SPEC 2.3)', () => {
  it('accepts a minimal and a complete execution', () => {
    expect(check(minimalExecution())).toEqual(ok);
    expect(check(fullExecution())).toEqual(ok);
  });

  it.each([
    '/scenario_executions',
    '/scenario_executions/0/rules',
    `${RULE}/rule_data/attribute`,
    '/execution_id',
    '/last_execution_date',
  ])('requires %s', (pointer) => {
    expect(check(deleteAt(fullExecution(), pointer))).toEqual({ ok: false, issues: [{ path: pointer, message: 'is required' }] });
  });

  it('leaves every field not marked required optional', () => {
    const optional = [
      '/execution_status', '/scenario_executions/0/scenarioId', '/scenario_executions/0/scenarioStatus',
      '/scenario_executions/0/executed_at', `${RULE}/id`, `${RULE}/execution_id`, `${RULE}/cms_object_id`,
      `${RULE}/cms_scenario_id`, `${RULE}/object_type`, `${RULE}/result`, `${RULE}/rule_data`, `${RULE}/status`,
      `${RULE}/executed_at`, `${RULE}/created_at`, `${RULE}/documents`, `${RULE}/rule_data/queryId`,
      `${RULE}/rule_data/id`, `${RULE}/rule_data/requestId`, `${RULE}/rule_data/value`, `${RULE}/rule_data/operator`,
      `${RULE}/rule_data/type`, `${RULE}/rule_data/attribute/version`, `${RULE}/rule_data/attribute/schema`,
      `${RULE}/rule_data/attribute/path`, `${RULE}/documents/0/documentType`, `${RULE}/documents/0/url`,
    ];
    for (const pointer of optional) expect(check(deleteAt(fullExecution(), pointer)), pointer).toEqual(ok);
  });

  it.each([`${RULE}/rule_data`, `${RULE}/documents`, `${RULE}/rule_data/value`])('accepts null for %s', (pointer) => {
    expect(check(setAt(fullExecution(), pointer, null))).toEqual(ok);
  });

  it.each([
    ['/execution_id', 'must be a string'],
    ['/execution_status', 'must be a string'],
    ['/last_execution_date', 'must be a string'],
    ['/scenario_executions', 'must be an array'],
    ['/scenario_executions/0/scenarioId', 'must be a string'],
    ['/scenario_executions/0/rules', 'must be an array'],
    [`${RULE}/result`, 'must be an object'],
    [`${RULE}/status`, 'must be a string'],
    [`${RULE}/created_at`, 'must be a string'],
    [`${RULE}/rule_data/attribute`, 'must be an object'],
    [`${RULE}/rule_data/requestId`, 'must be a number'],
  ])('rejects null for %s, which is not nullable', (pointer, message) => {
    expect(check(setAt(fullExecution(), pointer, null))).toEqual({ ok: false, issues: [{ path: pointer, message }] });
  });

  it.each([true, false, 'GBR', 0, -1.5, [], ['GBR', 'DEU'], [1, 'a', false]])('accepts the rule value %j', (value) => {
    expect(check(setAt(fullExecution(), `${RULE}/rule_data/value`, value))).toEqual(ok);
  });

  it('rejects a rule value that is an object or a nested array', () => {
    const pointer = `${RULE}/rule_data/value`;
    expect(check(setAt(fullExecution(), pointer, { a: 1 }))).toEqual({
      ok: false,
      issues: [{ path: pointer, message: 'must be a boolean, a string, a number, an array or null' }],
    });
    expect(check(setAt(fullExecution(), pointer, [[1]]))).toEqual({
      ok: false,
      issues: [{ path: `${pointer}/0`, message: 'must be a boolean, a string or a number' }],
    });
  });

  it('leaves the rule result open: any inner fields, no warnings', () => {
    expect(check(setAt(fullExecution(), `${RULE}/result`, { deep: { x: [1, { y: null }] }, z: 'a' }))).toEqual(ok);
  });

  it('rejects a bad executed_at with a date-time message', () => {
    expect(check(setAt(fullExecution(), '/scenario_executions/0/executed_at', '2024-03-01T24:00:00Z'))).toEqual({
      ok: false,
      issues: [{ path: '/scenario_executions/0/executed_at', message: 'must be a date-time (RFC 3339)' }],
    });
  });

  it('reports unlisted fields of listed objects as warnings', () => {
    const record = setAt(setAt(fullExecution(), `${RULE}/extra`, 1), `${RULE}/rule_data/attribute/note`, 'x');
    const result = check(record);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.warnings).toHaveLength(2);
    expect(result.warnings).toEqual(
      expect.arrayContaining([
        { path: `${RULE}/rule_data/attribute/note`, message: 'field not in the contract (kept)' },
        { path: `${RULE}/extra`, message: 'field not in the contract (kept)' },
      ]),
    );
  });
});
