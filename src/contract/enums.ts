/**
 * Every enumeration of SPEC 2.1, spelled exactly as the spec spells it (including
 * "Questionaire", "No risk", "$noop"). Each is exported as a values array (for code and
 * tests) and as a schema titled with its spec name (so OpenAPI can name it as a component).
 */
import type { Static, TSchema } from '@sinclair/typebox';
import { StringEnum } from './string-enum.js';
import { COUNTRY_ALPHA2_CODES, COUNTRY_ALPHA3_CODES, CountryAlpha2, CountryAlpha3 } from './countries.js';

export const RISK_SCORES = ['Low', 'Medium', 'High', 'No risk'] as const;
export const RiskScore = StringEnum(RISK_SCORES, { title: 'RiskScore' });
export type RiskScore = Static<typeof RiskScore>;

export const CUSTOMER_TYPES = ['Individual', 'Company'] as const;
export const CustomerType = StringEnum(CUSTOMER_TYPES, { title: 'CustomerType' });
export type CustomerType = Static<typeof CustomerType>;

// The spec lists "Onboarded" twice; an enum holds each value once, so seven values.
export const ONBOARDING_LEVELS = [
  'Sign-up', 'AML screening', 'KYC', 'Questionaire', 'Onboarded', 'Onboarding', 'KYB',
] as const;
export const OnboardingLevel = StringEnum(ONBOARDING_LEVELS, { title: 'OnboardingLevel' });
export type OnboardingLevel = Static<typeof OnboardingLevel>;

export const CUSTOMER_STATUSES = [
  'Active', 'Rejected', 'Dormant', 'To be reviewed', 'Failed', 'Escalated', 'Terminated', 'No status',
] as const;
export const CustomerStatus = StringEnum(CUSTOMER_STATUSES, { title: 'CustomerStatus' });
export type CustomerStatus = Static<typeof CustomerStatus>;

export const BENEFICIARY_TYPES = ['ubo', 'shareholder', 'representative'] as const;
export const BeneficiaryType = StringEnum(BENEFICIARY_TYPES, { title: 'BeneficiaryType' });
export type BeneficiaryType = Static<typeof BeneficiaryType>;

export const BENEFICIARY_POSITIONS = ['director', 'shareholder', 'other'] as const;
export const BeneficiaryPosition = StringEnum(BENEFICIARY_POSITIONS, { title: 'BeneficiaryPosition' });
export type BeneficiaryPosition = Static<typeof BeneficiaryPosition>;

export const EXECUTION_STATUSES = ['valid', 'not-valid', 'error', 'unknown'] as const;
export const ExecutionStatus = StringEnum(EXECUTION_STATUSES, { title: 'ExecutionStatus' });
export type ExecutionStatus = Static<typeof ExecutionStatus>;

// The spec has two distinct "DocumentKind" sets; they get distinct names here.
export const CUSTOMER_DOCUMENT_KINDS = ['proof_of_residence', 'company_document', 'video_kyc'] as const;
export const CustomerDocumentKind = StringEnum(CUSTOMER_DOCUMENT_KINDS, {
  title: 'CustomerDocumentKind',
  description: 'DocumentKind (customer documents)',
});
export type CustomerDocumentKind = Static<typeof CustomerDocumentKind>;

export const RULE_DOCUMENT_KINDS = ['proof_of_residence', 'id_image_front', 'id_image_back', 'selfie_image'] as const;
export const RuleDocumentKind = StringEnum(RULE_DOCUMENT_KINDS, {
  title: 'RuleDocumentKind',
  description: 'DocumentKind (rule documents)',
});
export type RuleDocumentKind = Static<typeof RuleDocumentKind>;

export const PROOF_OF_RESIDENCE_DOC_TYPES = [
  'Gas_bill', 'Internet_bill', 'Electricity_bill', 'Rent_agreement', 'Bank_statement',
] as const;
export const ProofOfResidenceDocType = StringEnum(PROOF_OF_RESIDENCE_DOC_TYPES, { title: 'ProofOfResidenceDocType' });
export type ProofOfResidenceDocType = Static<typeof ProofOfResidenceDocType>;

export const COMPANY_DOC_TYPES = ['INCORPORATION_CERT', 'INCORPORATION_ARTICLES', 'SHAREHOLDER_REGISTRY'] as const;
export const CompanyDocType = StringEnum(COMPANY_DOC_TYPES, { title: 'CompanyDocType' });
export type CompanyDocType = Static<typeof CompanyDocType>;

// Likewise two "MediaType" sets: the narrow one of proof-of-residence files, the wider
// one allowed in customer document metadata (adds video types).
export const PROOF_OF_RESIDENCE_MEDIA_TYPES = ['image/jpeg', 'image/jpg', 'image/png', 'application/pdf'] as const;
export const ProofOfResidenceMediaType = StringEnum(PROOF_OF_RESIDENCE_MEDIA_TYPES, {
  title: 'ProofOfResidenceMediaType',
  description: 'MediaType (proof of residence)',
});
export type ProofOfResidenceMediaType = Static<typeof ProofOfResidenceMediaType>;

export const METADATA_MEDIA_TYPES = [
  'image/jpg', 'image/jpeg', 'image/png', 'application/pdf', 'video/mp4', 'video/webm', 'video/quicktime',
] as const;
export const MetadataMediaType = StringEnum(METADATA_MEDIA_TYPES, {
  title: 'MetadataMediaType',
  description: 'MediaType (metadata, wider)',
});
export type MetadataMediaType = Static<typeof MetadataMediaType>;

export const ALERT_SEVERITIES = ['Low', 'Medium', 'High'] as const;
export const AlertSeverity = StringEnum(ALERT_SEVERITIES, { title: 'AlertSeverity' });
export type AlertSeverity = Static<typeof AlertSeverity>;

export const ALERT_CATEGORIES = ['Onboarding', 'Ongoing monitoring'] as const;
export const AlertCategory = StringEnum(ALERT_CATEGORIES, { title: 'AlertCategory' });
export type AlertCategory = Static<typeof AlertCategory>;

export const ALERT_TYPES = [
  'AML Screening', 'IP Screening', 'Email Screening', 'KYC Drop-off', 'Onchain Monitoring', 'Fraud',
  'Transaction Monitoring', 'Duplicate',
] as const;
export const AlertType = StringEnum(ALERT_TYPES, { title: 'AlertType' });
export type AlertType = Static<typeof AlertType>;

export const ALERT_STATUSES = ['Open', 'Under Investigation', 'Pending', 'Closed', 'Escalated'] as const;
export const AlertStatus = StringEnum(ALERT_STATUSES, { title: 'AlertStatus' });
export type AlertStatus = Static<typeof AlertStatus>;

export const AUDIT_ACTIONS = ['create', 'update', 'attach', 'detach', 'duplicate'] as const;
export const AuditAction = StringEnum(AUDIT_ACTIONS, { title: 'AuditAction' });
export type AuditAction = Static<typeof AuditAction>;

export const SCREENING_ENTITY_TYPES = ['person', 'company', 'organisation', 'vessel', 'aircraft'] as const;
export const ScreeningEntityType = StringEnum(SCREENING_ENTITY_TYPES, { title: 'ScreeningEntityType' });
export type ScreeningEntityType = Static<typeof ScreeningEntityType>;

export const SCREENING_MATCH_STATUSES = [
  'unknown', 'no_match', 'potential_match', 'false_positive', 'true_positive', 'true_positive_approve',
  'true_positive_reject',
] as const;
export const ScreeningMatchStatus = StringEnum(SCREENING_MATCH_STATUSES, { title: 'ScreeningMatchStatus' });
export type ScreeningMatchStatus = Static<typeof ScreeningMatchStatus>;

export const SCREENING_RISK_LEVELS = ['low', 'medium', 'high', 'unknown'] as const;
export const ScreeningRiskLevel = StringEnum(SCREENING_RISK_LEVELS, { title: 'ScreeningRiskLevel' });
export type ScreeningRiskLevel = Static<typeof ScreeningRiskLevel>;

export const SCREENING_TYPES = [
  'sanction', 'warning', 'fitness-probity', 'pep', 'pep-class-1', 'pep-class-2', 'pep-class-3', 'pep-class-4',
  'adverse-media', 'adverse-media-financial-crime', 'adverse-media-violent-crime', 'adverse-media-sexual-crime',
  'adverse-media-terrorism', 'adverse-media-fraud', 'adverse-media-narcotics', 'adverse-media-general',
  'adverse-media-v2-property', 'adverse-media-v2-financial-aml-cft', 'adverse-media-v2-fraud-linked',
  'adverse-media-v2-narcotics-aml-cft', 'adverse-media-v2-violence-aml-cft', 'adverse-media-v2-terrorism',
  'adverse-media-v2-cybercrime', 'adverse-media-v2-general-aml-cft', 'adverse-media-v2-regulatory',
  'adverse-media-v2-financial-difficulty', 'adverse-media-v2-violence-non-aml-cft',
  'adverse-media-v2-other-financial', 'adverse-media-v2-other-serious', 'adverse-media-v2-other-minor',
] as const;
export const ScreeningType = StringEnum(SCREENING_TYPES, { title: 'ScreeningType' });
export type ScreeningType = Static<typeof ScreeningType>;

// The spec writes the protocol prefix as "X3"; it stands for Iden3, whose published
// status types these are.
export const CREDENTIAL_STATUS_TYPES = [
  'SparseMerkleTreeProof', 'Iden3ReverseSparseMerkleTreeProof', 'Iden3commRevocationStatusV1.0',
  'Iden3OnchainSparseMerkleTreeProof2023',
] as const;
export const CredentialStatusType = StringEnum(CREDENTIAL_STATUS_TYPES, { title: 'CredentialStatusType' });
export type CredentialStatusType = Static<typeof CredentialStatusType>;

export const RULE_OBJECT_TYPES = [
  'PrivacyPreservingMonitoring', 'IndividualMonitoring', 'TransactionMonitoring', 'TFHE', 'OffChainZKP',
  'ChallengeQuery',
] as const;
export const RuleObjectType = StringEnum(RULE_OBJECT_TYPES, { title: 'RuleObjectType' });
export type RuleObjectType = Static<typeof RuleObjectType>;

export const RULE_OPERATORS = ['$noop', '$eq', '$lt', '$lte', '$gt', '$gte', '$in', '$nin', '$ne', '$exists'] as const;
export const RuleOperator = StringEnum(RULE_OPERATORS, { title: 'RuleOperator' });
export type RuleOperator = Static<typeof RuleOperator>;

export const RULE_DATA_TYPES = [
  'IDInformation', 'IDInformationTfhe', 'SelfieImage', 'IDImage', 'ProofOfResidence', 'AMLScreeningsResults', 'ID3',
  'IDScan', 'IDScanSelfie', 'IDScanPassport',
] as const;
export const RuleDataType = StringEnum(RULE_DATA_TYPES, { title: 'RuleDataType' });
export type RuleDataType = Static<typeof RuleDataType>;

export const ATTRIBUTE_SCHEMAS = ['Customer', 'KycSession', 'Transaction', 'Tfhe'] as const;
export const AttributeSchema = StringEnum(ATTRIBUTE_SCHEMAS, { title: 'AttributeSchema' });
export type AttributeSchema = Static<typeof AttributeSchema>;

export const ATTRIBUTE_VERSIONS = ['v1'] as const;
export const AttributeVersion = StringEnum(ATTRIBUTE_VERSIONS, { title: 'AttributeVersion' });
export type AttributeVersion = Static<typeof AttributeVersion>;

export const TRANSACTION_TYPES = ['crypto', 'fiat'] as const;
export const TransactionType = StringEnum(TRANSACTION_TYPES, { title: 'TransactionType' });
export type TransactionType = Static<typeof TransactionType>;

export const TRANSACTION_DIRECTIONS = ['IN', 'OUT'] as const;
export const TransactionDirection = StringEnum(TRANSACTION_DIRECTIONS, { title: 'TransactionDirection' });
export type TransactionDirection = Static<typeof TransactionDirection>;

export const TRANSACTION_AMOUNT_FIELD_NAMES = ['amount', 'networkFeeAmount', 'platformFeeAmount'] as const;
export const TransactionAmountFieldName = StringEnum(TRANSACTION_AMOUNT_FIELD_NAMES, {
  title: 'TransactionAmountFieldName',
});
export type TransactionAmountFieldName = Static<typeof TransactionAmountFieldName>;

export { COUNTRY_ALPHA2_CODES, COUNTRY_ALPHA3_CODES, CountryAlpha2, CountryAlpha3 };

/** Every enumeration schema by its (component) name, for OpenAPI generation and tests. */
export const ENUM_SCHEMAS: Readonly<Record<string, TSchema>> = {
  RiskScore, CustomerType, OnboardingLevel, CustomerStatus, BeneficiaryType, BeneficiaryPosition,
  CountryAlpha3, CountryAlpha2, ExecutionStatus, CustomerDocumentKind, RuleDocumentKind,
  ProofOfResidenceDocType, CompanyDocType, ProofOfResidenceMediaType, MetadataMediaType, AlertSeverity,
  AlertCategory, AlertType, AlertStatus, AuditAction, ScreeningEntityType, ScreeningMatchStatus,
  ScreeningRiskLevel, ScreeningType, CredentialStatusType, RuleObjectType, RuleOperator, RuleDataType,
  AttributeSchema, AttributeVersion, TransactionType, TransactionDirection, TransactionAmountFieldName,
};

/** Every enumeration's allowed values by name (the same names as ENUM_SCHEMAS). */
export const ENUMERATIONS: Readonly<Record<string, readonly string[]>> = Object.fromEntries(
  Object.entries(ENUM_SCHEMAS).map(([name, schema]) => [name, schema.enum as readonly string[]]),
);
