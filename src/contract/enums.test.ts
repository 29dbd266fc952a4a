import { describe, expect, it } from 'vitest';
import {
  COMPANY_DOC_TYPES,
  CREDENTIAL_STATUS_TYPES,
  CUSTOMER_DOCUMENT_KINDS,
  ENUMERATIONS,
  ENUM_SCHEMAS,
  METADATA_MEDIA_TYPES,
  ONBOARDING_LEVELS,
  PROOF_OF_RESIDENCE_MEDIA_TYPES,
  RISK_SCORES,
  RULE_DOCUMENT_KINDS,
  RULE_OPERATORS,
} from './enums.js';
import { contractAjv } from './validators.js';

/** Strings one slip away from `value` that are not themselves allowed. */
function nearMisses(value: string, allowed: readonly string[]): string[] {
  const candidates = [
    value.toUpperCase(), value.toLowerCase(), `${value} `, ` ${value}`, value.slice(0, -1), `${value}x`,
    value.replace(/ /g, '_'), value.replace(/-/g, '_'),
  ];
  return [...new Set(candidates)].filter((c) => !allowed.includes(c));
}

describe('enumerations of SPEC 2.1', () => {
  it('lists the same enumerations in ENUMERATIONS and ENUM_SCHEMAS, 33 in all', () => {
    expect(Object.keys(ENUMERATIONS)).toEqual(Object.keys(ENUM_SCHEMAS));
    expect(Object.keys(ENUMERATIONS)).toHaveLength(33);
  });

  describe.each(Object.entries(ENUM_SCHEMAS))('%s', (name, schema) => {
    const check = contractAjv.compile(schema);
    const values = ENUMERATIONS[name] ?? [];

    it('is titled with its spec name and holds each value once', () => {
      expect(schema.title).toBe(name);
      expect(new Set(values).size).toBe(values.length);
      expect(values.length).toBeGreaterThan(0);
    });

    it('accepts every listed value', () => {
      for (const value of values) expect(check(value), value).toBe(true);
    });

    it('rejects near misses (case change, stray space, truncation), null and non-strings', () => {
      for (const value of values) {
        for (const miss of nearMisses(value, values)) expect(check(miss), JSON.stringify(miss)).toBe(false);
      }
      for (const bad of [null, '', 1, true, [values[0]]]) expect(check(bad), JSON.stringify(bad)).toBe(false);
    });
  });

  it('keeps the exact spellings of the spec', () => {
    expect(RISK_SCORES).toContain('No risk');
    expect(ONBOARDING_LEVELS).toContain('Questionaire');
    expect(RULE_OPERATORS).toContain('$noop');
    expect(ENUMERATIONS.CustomerStatus).toContain('To be reviewed');
    expect(ENUMERATIONS.AlertStatus).toContain('Under Investigation');
    expect(ENUMERATIONS.AlertType).toContain('KYC Drop-off');
  });

  it('gives OnboardingLevel seven distinct values (Onboarded once)', () => {
    expect(ONBOARDING_LEVELS).toEqual(['Sign-up', 'AML screening', 'KYC', 'Questionaire', 'Onboarded', 'Onboarding', 'KYB']);
  });

  it('reads the X3 prefix of CredentialStatusType as Iden3', () => {
    expect(CREDENTIAL_STATUS_TYPES).toEqual([
      'SparseMerkleTreeProof',
      'Iden3ReverseSparseMerkleTreeProof',
      'Iden3commRevocationStatusV1.0',
      'Iden3OnchainSparseMerkleTreeProof2023',
    ]);
  });

  it('keeps the two DocumentKind sets distinct', () => {
    expect(CUSTOMER_DOCUMENT_KINDS).toEqual(['proof_of_residence', 'company_document', 'video_kyc']);
    expect(RULE_DOCUMENT_KINDS).toEqual(['proof_of_residence', 'id_image_front', 'id_image_back', 'selfie_image']);
  });

  it('keeps the two MediaType sets distinct', () => {
    expect(PROOF_OF_RESIDENCE_MEDIA_TYPES).toEqual(['image/jpeg', 'image/jpg', 'image/png', 'application/pdf']);
    expect(METADATA_MEDIA_TYPES).toHaveLength(7);
    expect(METADATA_MEDIA_TYPES).toContain('video/quicktime');
    expect(contractAjv.compile(ENUM_SCHEMAS.ProofOfResidenceMediaType!)('video/mp4')).toBe(false);
  });

  it('has no overlap between proof-of-residence and company document types', () => {
    expect(COMPANY_DOC_TYPES.filter((t) => (ENUMERATIONS.ProofOfResidenceDocType ?? []).includes(t))).toEqual([]);
  });
});
