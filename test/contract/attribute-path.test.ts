import { describe, expect, it } from 'vitest';
import { ATTRIBUTE_PATHS, isAttributePath } from '../../src/contract/attribute-path.js';
import { ATTRIBUTE_SCHEMAS } from '../../src/contract/enums.js';
import { fullExecution } from '../../src/contract/examples.js';
import { setAt } from '../support/json-pointer.js';
import { validateRecord } from '../../src/contract/validators.js';

const PATH = '/scenario_executions/0/rules/0/rule_data/attribute/path';

describe('attribute paths (SPEC 2.3.1)', () => {
  it('enumerates 253 paths: Customer 32, KycSession 130, Tfhe 40, Transaction 51', () => {
    const count = (root: string) => [...ATTRIBUTE_PATHS].filter((p) => p.split('/')[0] === root).length;
    expect(count('Customer')).toBe(32);
    // vcs node + 4 credentials: IDInformation 38, IDImage 31, SelfieImage 28, ProofOfResidence 31.
    expect(count('KycSession')).toBe(130);
    expect(count('Tfhe')).toBe(40);
    expect(count('Transaction')).toBe(51);
    expect(ATTRIBUTE_PATHS.size).toBe(253);
  });

  it('roots every path at an AttributeSchema value', () => {
    for (const path of ATTRIBUTE_PATHS) expect(ATTRIBUTE_SCHEMAS).toContain(path.split('/')[0]);
  });

  it('accepts every enumerated path in a rule record', () => {
    for (const path of ATTRIBUTE_PATHS) {
      expect(validateRecord('execution', setAt(fullExecution(), PATH, path)), path).toEqual({ ok: true, warnings: [] });
    }
  });

  it.each([
    'Customer',
    'Customer/identityData',
    'Customer/walletScreening',
    'KycSession',
    'KycSession/vcs',
    'KycSession/vcs/IDImage',
    'KycSession/vcs/IDImage/v1',
    'KycSession/vcs/IDImage/v1/credentialSubject',
    'KycSession/vcs/IDInformation/v1/credentialSubject/personalData',
    'KycSession/vcs/ProofOfResidence/v1/credentialStatus',
    'Tfhe/vcs/IDInformationTfhe/v1',
    'Transaction/transactionStats',
    'Transaction/transactionStats/last7D',
  ])('accepts the intermediate node %s', (path) => {
    expect(isAttributePath(path)).toBe(true);
  });

  it.each([
    'Customer/identityData/age',
    'Customer/walletScreening/riskScore',
    'Customer/fraudAnalytics/ipVpn',
    'KycSession/vcs/IDInformation/v1/credentialSubject/personalData/stateOfBirth',
    'KycSession/vcs/IDImage/v1/@context',
    'KycSession/vcs/SelfieImage/v1/credentialStatus/revocationNonce',
    'KycSession/vcs/ProofOfResidence/v1/credentialSchema/type',
    'KycSession/vcs/IDImage/v1/credentialSubject/base64_back',
    'Tfhe/vcs/IDInformationTfhe/v1/credentialSubject/personalData/fullName',
    'Transaction/amount/GBP',
    'Transaction/originator/address',
    'Transaction/beneficiary/riskLevel',
    'Transaction/transactionStats/monthToDate/maxAmountUsd',
  ])('accepts the full path %s', (path) => {
    expect(isAttributePath(path)).toBe(true);
  });

  it.each([
    'customer/identityData',
    'Customer/identityData/',
    '/Customer',
    'Customer//identityData',
    'Transaction/transactionStats/last2D/count',
    'Transaction/transactionStats/last7d/count',
    'KycSession/vcs/IDImage/v2/id',
    'Customer/identityData/age/x',
    '',
    ' Customer',
    'Customer ',
    'Customer\\identityData',
    'KycSession/vcs/IDInformationTfhe/v1/id',
    'Tfhe/vcs/IDInformation/v1/id',
    'KycSession/vcs/IDImage/v1/credentialSubject/personalData',
    'KycSession/vcs/SelfieImage/v1/credentialSubject/country',
    'KycSession/vcs/IDImage/v1/credentialStatus/nonce',
    'KycSession/vcs/IDImage/v1/credentialSchema/revocationNonce',
    'KycSession/vcs/IDImage/v1/proof/type',
    'Customer/walletScreening/riskLevel',
    'Transaction/amount/JPY',
    'Tfhe/vcs/IDInformationTfhe/v1/credentialSubject/personalData/ssn',
    'KycSession/IDImage/v1/id',
  ])('rejects %j', (path) => {
    expect(isAttributePath(path)).toBe(false);
  });

  it('rejects a wrong path in a rule with a clear message at its pointer', () => {
    const result = validateRecord('execution', setAt(fullExecution(), PATH, 'Customer/identityData/'));
    expect(result).toEqual({
      ok: false,
      issues: [{ path: PATH, message: 'must be an allowed attribute path (SPEC 2.3.1)' }],
    });
  });
});
