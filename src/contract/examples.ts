/**
 * Example records valid against the contract: a minimal one (only what is required) and a
 * complete one (every listed field) per resource. Tests start from these and change one
 * thing; they can also serve as OpenAPI examples. Each call returns a fresh object.
 */

import type { Change } from './change.js';

const CUSTOMER_ID = '3b241101-e2bb-4255-8caf-4136c566a962';
const ALERT_ID = '9f1c6d2e-4b7a-4e2d-9c3b-1a2b3c4d5e6f';
const FILE_ID = 'A1B2C3D4-E5F6-4711-8899-AABBCCDDEEFF';
const PROJECT = 'proj-1';
const WHEN = '2024-03-01T12:00:00Z';

/** The smallest company details record this service stores. */
export function minimalCompany(): Record<string, unknown> {
  return { id: CUSTOMER_ID, cmsProjectId: PROJECT };
}

/** A stored file as attached to customer documents and alert notes. */
export function storedFile(): Record<string, unknown> {
  return {
    id: FILE_ID,
    objectKey: '0e9f8d7c-6b5a-4f3e-9d2c-1b0a9f8e7d6c',
    filename: 'bill.pdf',
    mimetype: 'application/pdf',
    description: 'gas bill',
    cmsProjectId: PROJECT,
    createdAt: WHEN,
    createdBy: 'ops@example.com',
    presignedUrl: 'https://files.example.com/bill.pdf?sig=abc',
  };
}

/** A company details record with every field of SPEC 2.2 present. */
export function fullCompany(): Record<string, unknown> {
  const beneficiary = {
    id: 'b-1', beneficiaryType: 'ubo', name: 'Ada Lovelace', email: 'ada@example.com',
    beneficiaryPositions: ['director', 'shareholder'], ownershipPercentage: 51.5, inRegistry: true,
    status: 'Active', customerType: 'Individual',
  };
  return {
    ...minimalCompany(),
    externalCustomerId: 'ext-1', riskScore: 'No risk', type: 'Company', onboardingLevel: 'Questionaire',
    status: 'To be reviewed', createdAt: WHEN, updatedAt: '2024-03-02T08:30:00.123+01:00', createdBy: 'system',
    updatedBy: 'ops', reason: 'periodic review', externalId: 'X-1',
    beneficiaries: { individualBeneficiaries: [beneficiary], companyBeneficiaries: null },
    companyClaims: [{
      id: '5d5c6b7a-1111-4222-8333-944455556666', customerId: CUSTOMER_ID, sub: 'sub-1', companyName: 'ACME Ltd',
      registrationNumber: '123', legalAddress: '1 Main St', incorporatedOn: '2001-01-01', type: 'LLC',
      email: 'info@acme.test', phone: '+44 20 0000 0000', controlScheme: 'shares', taxId: 'T-1',
      registrationLocation: 'London', website: 'https://acme.test', postalAddress: '1 Main St', country: 'GBR',
      createdAt: WHEN, updatedAt: WHEN, createdBy: 'system', updatedBy: 'system', addresses: ['1 Main St'],
      beneficiaries: [{
        applicantId: 'app-1', type: 'shareholder', positions: ['director'], inRegistry: false, imageIds: ['img-1'],
        shareSize: 25,
      }],
    }],
    documents: [{
      documentId: '7e57d0c5-0000-4000-8000-000000000001', customerId: CUSTOMER_ID, documentType: 'proof_of_residence',
      metadata: {
        journeyId: 'j-1', country: 'XKX', name: 'bill.pdf', documentType: 'Gas_bill', entryDate: '2024-03-01',
        entryTime: '12:00', mediaType: 'video/quicktime', county: 'Kent', city: 'Dover', streetName: 'Dock Rd',
        postalCode: 'CT16', isSandbox: false,
      },
      createdAt: WHEN, updatedAt: WHEN, createdBy: 'system', updatedBy: 'system',
      document: storedFile(),
    }],
  };
}

/** The smallest execution this service stores. */
export function minimalExecution(): Record<string, unknown> {
  return { execution_id: 'exec-1', scenario_executions: [], last_execution_date: WHEN };
}

/** A rule execution with every field of SPEC 2.3 present. */
export function fullRule(): Record<string, unknown> {
  return {
    id: 'rule-1', execution_id: 'exec-1', cms_object_id: 'obj-1', cms_scenario_id: 'scn-1',
    object_type: 'IndividualMonitoring', result: { passed: true, anything: { goes: [1, 2] } },
    rule_data: {
      queryId: 'q-1', id: 'q-1', requestId: 7,
      attribute: { version: 'v1', schema: 'Customer', path: 'Customer/identityData/age' },
      value: 18, operator: '$gte', type: 'IDInformation',
    },
    status: 'valid', executed_at: WHEN, created_at: WHEN,
    documents: [{ documentType: 'id_image_front', url: 'https://files.example.com/front.jpg' }],
  };
}

/** An execution with every field of SPEC 2.3 present. */
export function fullExecution(): Record<string, unknown> {
  return {
    execution_id: 'exec-1', execution_status: 'not-valid', last_execution_date: '2024-03-01T13:00:00+01:00',
    scenario_executions: [{ scenarioId: 'scn-1', scenarioStatus: 'error', executed_at: WHEN, rules: [fullRule()] }],
  };
}

/** The alert fields SPEC 2.4 marks required, and nothing else. */
export function minimalAlert(): Record<string, unknown> {
  return {
    id: ALERT_ID, severity: 'High', category: 'Ongoing monitoring', type: 'KYC Drop-off', status: 'Under Investigation',
    name: 'Drop-off', description: null, assignedTo: null, seen: false, customerId: CUSTOMER_ID, cmsProjectId: PROJECT,
    createdAt: WHEN, updatedAt: WHEN, createdBy: 'system', updatedBy: 'system', reason: null, audits: [],
  };
}

/** A verifiable credential as carried in alert results. */
export function credential(): Record<string, unknown> {
  return {
    id: 'urn:uuid:1', '@context': ['https://www.w3.org/2018/credentials/v1'], type: ['VerifiableCredential'],
    expirationDate: '2025-01-01T00:00:00Z', issuanceDate: '2024-01-01T00:00:00Z',
    credentialSubject: { id: 'did:x', journeyId: 'j-1', anything: true },
    credentialStatus: { id: 'https://issuer.test/status/1', type: 'Iden3commRevocationStatusV1.0', revocationNonce: 1 },
    issuer: 'did:issuer', credentialSchema: { id: 'https://schema.test/id.json', type: 'JsonSchema2023' },
    proof: [{ type: 'BJJSignature2021' }],
  };
}

/** Screening provider data with every listed field present (SPEC 2.4.1). */
export function screeningProviderData(): Record<string, unknown> {
  // Functions, not shared objects: a test changing one spot must not change another.
  const media = () => ({ date: WHEN, snippet: 's', title: 't', url: 'https://news.test/a' });
  const associates = () => [{ association: 'spouse', name: 'B' }];
  const filters = () => ({
    types: ['pep', 'adverse-media-v2-other-minor'], birth_year: 1970, remove_deceased: 1, entity_type: 'person',
    country_codes: ['GB', 'XK'],
  });
  const user = () => ({
    id: 1, email: 'analyst@example.com', name: 'An Alyst', phone: '+1', created_at: WHEN, user_is_active: true,
  });
  return {
    id: '11111111-2222-4333-8444-555555555555', customerId: CUSTOMER_ID, searchId: 42, searchRef: 'ref-42',
    searchResult: {
      client_ref: 'c-1', id: 42, ref: 'ref-42', searcher_id: 1, assignee_id: 1, filters: filters(),
      match_status: 'potential_match', risk_level: 'medium', search_term: 'John Doe', submitted_term: 'John Doe',
      total_hits: 1, total_matches: 1, total_blacklist_hits: 0, created_at: WHEN, updated_at: WHEN,
      tags: [{ k: 'v' }], labels: ['l'], limit: 100, offset: 0, searcher: user(), assignee: user(),
      hits: [{
        doc: {
          id: 'doc-1', last_updated_utc: WHEN, created_utc: WHEN,
          fields: [{ name: 'Nationality', source: 'src', value: 'GB', locale: 'en', tag: 't' }],
          types: ['sanction'], name: 'John Doe', entity_type: 'person', aka: [{ name: 'JD' }], associates: associates(),
          sources: ['src'], keywords: [], media: [media()], source_notes: { src: { name: 'Source' } },
          match_types: ['name_exact'],
          match_types_details: [{
            aml_types: ['sanction'], matching_name: 'John Doe',
            name_matches: [{ match_types: ['exact_match'], query_term: 'john' }], secondary_matches: [],
            sources: ['src'],
          }],
        },
        match_status: 'no_match', is_whitelisted: false, score: 1.7,
      }],
      blacklist_hits: [],
    },
    searchEntities: [{
      id: 'ent-1', last_updated_utc: WHEN, created_utc: WHEN,
      key_information: {
        name: 'John Doe', entity_type: 'organisation', types: null, grouped_types: [{ type: 'pep' }],
        match_types: null, sources: ['src'], source_notes: null, aka: null, date_of_birth: null, dates_of_birth: null,
        match_status: 'true_positive_reject', risk_level: 'unknown', is_whitelisted: null, age: null,
        death_age: null, date_of_death: null, primary_country: null, country_names: 'United Kingdom',
        designation: null, associates: null, uncategorized: { anything: 1 }, keywords: null, assets: null,
        related: null, fields: null, media: [media()], full_listing: { raw: true }, navigation: { next: null, previous: null },
      },
    }],
    requestData: {
      search_term: 'John Doe', client_ref: 'c-1', search_profile: null, fuzziness: 0.5, offset: 0, limit: 100,
      filters: filters(), tags: [{ name: 'team', value: 'kyc' }], share_url: 1, exact_match: false,
    },
    executionId: 'exec-1', alertId: ALERT_ID, isMonitored: true, createdAt: WHEN, updatedAt: WHEN,
  };
}

/** An alert with every field of SPEC 2.4 present. */
export function fullAlert(): Record<string, unknown> {
  const note = () => ({
    id: '22222222-3333-4444-8555-666666666666', name: 'n', description: null, data: { free: ['form'] },
    cmsProjectId: PROJECT, createdAt: WHEN, updatedAt: WHEN, createdBy: 'ops', updatedBy: 'ops',
    documents: [{ ...storedFile(), description: null }],
  });
  const base = { ...minimalAlert(), description: 'd', assignedTo: 'ops', reason: 'r', workflowSessionId: null };
  return {
    ...base,
    notes: [note()],
    audits: [
      { timestamp: WHEN, action: 'create', author: null, record: { status: 'Open', notes: [] } },
      { timestamp: WHEN, action: 'duplicate', author: 'ops', record: { ...base, notes: [note()] } },
    ],
    screeningProviderData: screeningProviderData(),
    duplicateData: {
      original: { customerId: CUSTOMER_ID, customerInfo: null, profilePicture: null, idDocumentUrl: null },
      duplicate: { customerId: FILE_ID, customerInfo: 'c', profilePicture: 'p', idDocumentUrl: 'u' },
    },
    results: [
      { data: { IDImage: credential(), SelfieImage: null }, status: 'valid', cmsScenarioId: 'scn-1' },
      { data: { TFHEResult: 'ciphertext', RulesEngineInputData: { any: 'thing' } }, status: null, cmsScenarioId: null },
      {
        data: {
          ruleData: {
            queryId: 'q', id: 'q', requestId: 1, operator: '$in', value: ['GBR', 'DEU'],
            attribute: { version: 'v1', schema: 'KycSession', path: 'KycSession/vcs/IDImage/v1/credentialSubject' },
          },
        },
      },
      { data: null },
    ],
    transactions: [{
      id: 't-1', transactionDate: WHEN, transactionType: 'crypto', customerId: CUSTOMER_ID,
      transactionInfo: {
        hash: '0xabc', blockchainChainId: '1', direction: 'OUT', amount: '1.5', currencyCode: 'ETH', hashUrl: null,
        transactionAmounts: [{ fieldName: 'networkFeeAmount', amount: '0.01' }],
      },
    }],
  };
}

/** A page of the change feed: a company stored, then one of its executions. */
export function exampleChanges(): Change[] {
  const company = fullCompany();
  const execution = fullExecution();
  return [
    { kind: 'company', id: company.id as string, customerId: null, operation: 'upsert', etag: 'xQ3Bv0Jm1m7bRk3yC9Wb3w2VvXWgq6N', changedAt: '2024-05-01T12:00:00.120Z' },
    { kind: 'execution', id: execution.execution_id as string, customerId: company.id as string, operation: 'upsert', etag: 'f8Hq0wX2aPz7N1dLk5Rt9uVc3eYb6Gm', changedAt: '2024-05-01T12:00:00.120Z' },
  ];
}
