/**
 * Alert `results` items (SPEC 2.4.3): a rule outcome whose `data` carries one of several
 * alternatives, most of them verifiable credentials. `data` is modelled as one object with
 * every alternative as an optional nullable property, which accepts each alternative alone
 * and keeps errors readable (no oneOf branch noise).
 */
import { Type, type Static } from '@sinclair/typebox';
import { CredentialStatusType, ExecutionStatus } from './enums.js';
import { RuleData } from './execution.js';
import { Maybe, OpenObject } from './schema-helpers.js';

const Str = Type.String();
const Opt = Type.Optional;

export const CredentialStatus = Type.Object(
  {
    id: Str,
    type: CredentialStatusType,
    revocationNonce: Opt(Type.Number()),
  },
  { title: 'CredentialStatus' },
);
export type CredentialStatus = Static<typeof CredentialStatus>;

export const CredentialSchema = Type.Object({ id: Str, type: Str }, { title: 'CredentialSchema' });
export type CredentialSchema = Static<typeof CredentialSchema>;

export const Credential = Type.Object(
  {
    id: Str,
    '@context': Opt(Type.Array(Str)),
    type: Type.Array(Str),
    expirationDate: Opt(Str),
    issuanceDate: Opt(Str),
    credentialSubject: OpenObject({}, { description: 'credential subject; inner shape depends on the credential' }),
    credentialStatus: CredentialStatus,
    issuer: Str,
    credentialSchema: CredentialSchema,
    // No type is given; proofs are objects or arrays of them depending on the issuer.
    proof: Opt(Type.Unknown()),
  },
  { title: 'Credential' },
);
export type Credential = Static<typeof Credential>;

// ruleData lists rule_data's fields without `type`, so `type` there is kept but reported.
export const ResultRuleData = Type.Omit(RuleData, ['type'], { title: 'ResultRuleData' });
export type ResultRuleData = Static<typeof ResultRuleData>;

export const ResultData = Type.Object(
  {
    AMLScreeningsResults: Maybe(Credential),
    ProofOfResidence: Maybe(Credential),
    IDScanSelfie: Maybe(Credential),
    IDImage: Maybe(Credential),
    IDInformation: Maybe(Credential),
    SelfieImage: Maybe(Credential),
    RulesEngineInputData: Maybe(OpenObject({})),
    TFHEResult: Maybe(Str),
    ruleData: Maybe(ResultRuleData),
  },
  { title: 'ResultData', description: 'one of the alternatives (SPEC 2.4.3)' },
);
export type ResultData = Static<typeof ResultData>;

export const ResultItem = Type.Object(
  {
    data: Maybe(ResultData),
    status: Maybe(ExecutionStatus),
    cmsScenarioId: Maybe(Str),
  },
  { title: 'ResultItem' },
);
export type ResultItem = Static<typeof ResultItem>;
