// Each enumeration where the spec uses it: every value is accepted at that spot of a
// complete record, and a near miss is rejected with an issue pointing at that spot.
import { describe, expect, it } from 'vitest';
import { ENUMERATIONS } from '../../src/contract/enums.js';
import { fullAlert, fullCompany, fullExecution } from '../../src/contract/examples.js';
import { setAt } from '../support/json-pointer.js';
import { validateRecord, type RecordKind } from '../../src/contract/validators.js';

const SP = '/screeningProviderData';
const RULE = '/scenario_executions/0/rules/0';

const PLACES: [enumName: string, kind: RecordKind, pointer: string][] = [
  ['RiskScore', 'customer', '/riskScore'],
  ['CustomerType', 'customer', '/type'],
  ['CustomerType', 'customer', '/beneficiaries/individualBeneficiaries/0/customerType'],
  ['OnboardingLevel', 'customer', '/onboardingLevel'],
  ['CustomerStatus', 'customer', '/status'],
  ['CustomerStatus', 'customer', '/beneficiaries/individualBeneficiaries/0/status'],
  ['BeneficiaryType', 'customer', '/beneficiaries/individualBeneficiaries/0/beneficiaryType'],
  ['BeneficiaryType', 'customer', '/companyClaims/0/beneficiaries/0/type'],
  ['BeneficiaryPosition', 'customer', '/beneficiaries/individualBeneficiaries/0/beneficiaryPositions/0'],
  ['CountryAlpha3', 'customer', '/companyClaims/0/country'],
  ['CountryAlpha3', 'customer', '/documents/0/metadata/country'],
  ['CustomerDocumentKind', 'customer', '/documents/0/documentType'],
  ['ProofOfResidenceDocType', 'customer', '/documents/0/metadata/documentType'],
  ['CompanyDocType', 'customer', '/documents/0/metadata/documentType'],
  ['MetadataMediaType', 'customer', '/documents/0/metadata/mediaType'],
  ['ProofOfResidenceMediaType', 'customer', '/documents/0/metadata/mediaType'],
  ['ExecutionStatus', 'execution', '/execution_status'],
  ['ExecutionStatus', 'execution', '/scenario_executions/0/scenarioStatus'],
  ['ExecutionStatus', 'execution', `${RULE}/status`],
  ['ExecutionStatus', 'alert', '/results/0/status'],
  ['RuleDocumentKind', 'execution', `${RULE}/documents/0/documentType`],
  ['RuleObjectType', 'execution', `${RULE}/object_type`],
  ['RuleOperator', 'execution', `${RULE}/rule_data/operator`],
  ['RuleOperator', 'alert', '/results/2/data/ruleData/operator'],
  ['RuleDataType', 'execution', `${RULE}/rule_data/type`],
  ['AttributeSchema', 'execution', `${RULE}/rule_data/attribute/schema`],
  ['AttributeVersion', 'execution', `${RULE}/rule_data/attribute/version`],
  ['AlertSeverity', 'alert', '/severity'],
  ['AlertCategory', 'alert', '/category'],
  ['AlertType', 'alert', '/type'],
  ['AlertStatus', 'alert', '/status'],
  ['AlertStatus', 'alert', '/audits/1/record/status'],
  ['AuditAction', 'alert', '/audits/0/action'],
  ['ScreeningEntityType', 'alert', `${SP}/searchResult/hits/0/doc/entity_type`],
  ['ScreeningEntityType', 'alert', `${SP}/searchEntities/0/key_information/entity_type`],
  ['ScreeningEntityType', 'alert', `${SP}/requestData/filters/entity_type`],
  ['ScreeningMatchStatus', 'alert', `${SP}/searchResult/match_status`],
  ['ScreeningMatchStatus', 'alert', `${SP}/searchResult/hits/0/match_status`],
  ['ScreeningMatchStatus', 'alert', `${SP}/searchEntities/0/key_information/match_status`],
  ['ScreeningRiskLevel', 'alert', `${SP}/searchResult/risk_level`],
  ['ScreeningType', 'alert', `${SP}/searchResult/hits/0/doc/types/0`],
  ['ScreeningType', 'alert', `${SP}/searchResult/filters/types/0`],
  ['CountryAlpha2', 'alert', `${SP}/searchResult/filters/country_codes/0`],
  ['CountryAlpha2', 'alert', `${SP}/requestData/filters/country_codes/0`],
  ['CredentialStatusType', 'alert', '/results/0/data/IDImage/credentialStatus/type'],
  ['TransactionType', 'alert', '/transactions/0/transactionType'],
  ['TransactionDirection', 'alert', '/transactions/0/transactionInfo/direction'],
  ['TransactionAmountFieldName', 'alert', '/transactions/0/transactionInfo/transactionAmounts/0/fieldName'],
];

const EXAMPLES: Record<RecordKind, () => Record<string, unknown>> = {
  customer: fullCompany,
  execution: fullExecution,
  alert: fullAlert,
};

describe.each(PLACES)('%s at %s %s', (enumName, kind, pointer) => {
  const values = ENUMERATIONS[enumName] ?? [];

  it('accepts every value', () => {
    for (const value of values) {
      const result = validateRecord(kind, setAt(EXAMPLES[kind](), pointer, value));
      expect(result, value).toEqual({ ok: true, warnings: [] });
    }
  });

  it('rejects a value that is not in the enumeration, pointing at the field', () => {
    const first = values[0] ?? '';
    const result = validateRecord(kind, setAt(EXAMPLES[kind](), pointer, `${first} `));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues).toHaveLength(1);
    expect(result.issues[0]?.path).toBe(pointer);
    expect(result.issues[0]?.message).toMatch(/^must be one of/);
  });
});

describe('enumeration error messages', () => {
  it('lists the allowed values: "must be one of: Low, Medium, High"', () => {
    const result = validateRecord('alert', setAt(fullAlert(), '/severity', 'Critical'));
    expect(result).toEqual({ ok: false, issues: [{ path: '/severity', message: 'must be one of: Low, Medium, High' }] });
  });

  it('says when null is also allowed', () => {
    const result = validateRecord('customer', setAt(fullCompany(), '/riskScore', 'low'));
    expect(result).toEqual({
      ok: false,
      issues: [{ path: '/riskScore', message: 'must be one of: Low, Medium, High, No risk (or null)' }],
    });
  });

  it('names a long enumeration instead of listing it', () => {
    const result = validateRecord('customer', setAt(fullCompany(), '/companyClaims/0/country', 'GB'));
    expect(result).toEqual({
      ok: false,
      issues: [{ path: '/companyClaims/0/country', message: 'must be one of the 251 allowed CountryAlpha3 values (or null)' }],
    });
  });
});
