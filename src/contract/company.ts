/**
 * Company details record (SPEC 2.2). The spec leaves requiredness and nullability of these
 * fields "not shown" except where it states them, so every field here is optional and may be
 * null unless marked otherwise; being strict where the spec is silent would reject records
 * the upstream platform legitimately produces.
 */
import { Type, type Static } from '@sinclair/typebox';
import {
  BeneficiaryPosition,
  BeneficiaryType,
  CountryAlpha3,
  CustomerDocumentKind,
  CustomerStatus,
  CustomerType,
  MetadataMediaType,
  OnboardingLevel,
  PROOF_OF_RESIDENCE_DOC_TYPES,
  COMPANY_DOC_TYPES,
  RiskScore,
} from './enums.js';
import { DateTime, Maybe, Uuid } from './schema-helpers.js';
import { StringEnum } from './string-enum.js';

const Str = Type.String();

export const Beneficiary = Type.Object(
  {
    id: Maybe(Str),
    beneficiaryType: Maybe(BeneficiaryType),
    name: Maybe(Str),
    email: Maybe(Type.String({ format: 'email' })),
    beneficiaryPositions: Maybe(Type.Array(BeneficiaryPosition)),
    ownershipPercentage: Maybe(Type.Number()),
    inRegistry: Maybe(Type.Boolean()),
    status: Maybe(CustomerStatus),
    customerType: Maybe(CustomerType),
  },
  { title: 'Beneficiary' },
);
export type Beneficiary = Static<typeof Beneficiary>;

export const Beneficiaries = Type.Object(
  {
    individualBeneficiaries: Maybe(Type.Array(Beneficiary)),
    companyBeneficiaries: Maybe(Type.Array(Beneficiary)),
  },
  { title: 'Beneficiaries' },
);
export type Beneficiaries = Static<typeof Beneficiaries>;

export const ClaimBeneficiary = Type.Object(
  {
    applicantId: Maybe(Str),
    type: Maybe(BeneficiaryType),
    positions: Maybe(Type.Array(Str)),
    inRegistry: Maybe(Type.Boolean()),
    imageIds: Maybe(Type.Array(Str)),
    shareSize: Maybe(Type.Number()),
  },
  { title: 'ClaimBeneficiary' },
);
export type ClaimBeneficiary = Static<typeof ClaimBeneficiary>;

export const CompanyClaim = Type.Object(
  {
    id: Maybe(Uuid()),
    customerId: Maybe(Uuid()),
    sub: Maybe(Str),
    companyName: Maybe(Str),
    registrationNumber: Maybe(Str),
    legalAddress: Maybe(Str),
    incorporatedOn: Maybe(Str),
    type: Maybe(Str),
    email: Maybe(Str),
    phone: Maybe(Str),
    controlScheme: Maybe(Str),
    taxId: Maybe(Str),
    registrationLocation: Maybe(Str),
    website: Maybe(Str),
    postalAddress: Maybe(Str),
    country: Maybe(CountryAlpha3),
    createdAt: Maybe(DateTime()),
    updatedAt: Maybe(DateTime()),
    createdBy: Maybe(Str),
    updatedBy: Maybe(Str),
    addresses: Maybe(Type.Array(Str)),
    beneficiaries: Maybe(Type.Array(ClaimBeneficiary)),
  },
  { title: 'CompanyClaim' },
);
export type CompanyClaim = Static<typeof CompanyClaim>;

export const DocumentMetadata = Type.Object(
  {
    journeyId: Maybe(Str),
    country: Maybe(CountryAlpha3),
    name: Maybe(Str),
    documentType: Maybe(
      StringEnum([...PROOF_OF_RESIDENCE_DOC_TYPES, ...COMPANY_DOC_TYPES], {
        description: 'ProofOfResidenceDocType, or CompanyDocType for company documents',
      }),
    ),
    entryDate: Maybe(Str),
    entryTime: Maybe(Str),
    mediaType: Maybe(MetadataMediaType),
    county: Maybe(Str),
    city: Maybe(Str),
    streetName: Maybe(Str),
    postalCode: Maybe(Str),
    isSandbox: Maybe(Type.Boolean()),
  },
  { title: 'DocumentMetadata' },
);
export type DocumentMetadata = Static<typeof DocumentMetadata>;

export const StoredFile = Type.Object(
  {
    id: Maybe(Uuid()),
    objectKey: Maybe(Uuid()),
    filename: Maybe(Str),
    mimetype: Maybe(Str),
    description: Maybe(Str),
    cmsProjectId: Maybe(Str),
    createdAt: Maybe(DateTime()),
    createdBy: Maybe(Str),
    presignedUrl: Maybe(Type.String({ description: 'address for fetching the file' })),
  },
  { title: 'StoredFile' },
);
export type StoredFile = Static<typeof StoredFile>;

export const CustomerDocument = Type.Object(
  {
    documentId: Maybe(Uuid()),
    customerId: Maybe(Uuid()),
    documentType: Maybe(CustomerDocumentKind),
    // Required by the spec; a required object that is null would carry nothing, so not nullable.
    metadata: DocumentMetadata,
    createdAt: Maybe(DateTime()),
    updatedAt: Maybe(DateTime()),
    createdBy: Maybe(Str),
    updatedBy: Maybe(Str),
    document: StoredFile,
  },
  { title: 'CustomerDocument' },
);
export type CustomerDocument = Static<typeof CustomerDocument>;

export const CompanyDetails = Type.Object(
  {
    id: Uuid({
      description: 'customer identifier; required and non-null here because the service stores records by it',
    }),
    cmsProjectId: Type.String({
      description: 'required and non-null here because the service scopes records by project',
    }),
    externalCustomerId: Maybe(Str),
    riskScore: Maybe(RiskScore),
    type: Maybe(CustomerType),
    onboardingLevel: Maybe(OnboardingLevel),
    status: Maybe(CustomerStatus),
    createdAt: Maybe(DateTime()),
    updatedAt: Maybe(DateTime()),
    createdBy: Maybe(Str),
    updatedBy: Maybe(Str),
    reason: Maybe(Str),
    externalId: Maybe(Str),
    beneficiaries: Maybe(Beneficiaries),
    companyClaims: Maybe(Type.Array(CompanyClaim)),
    documents: Maybe(Type.Array(CustomerDocument)),
  },
  { $id: 'CompanyDetails', title: 'CompanyDetails', description: 'Company details record (SPEC 2.2)' },
);
export type CompanyDetails = Static<typeof CompanyDetails>;
