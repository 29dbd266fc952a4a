/**
 * What a company adds to the store beside its record, shaped once at import (or by the backfill):
 * its summary's bytes as the company list serves them, the columns the list filters and sorts on,
 * and its search text.
 */
import { hash } from 'node:crypto';
import { instantKey } from '../contract/date-time.js';
import type { CompanyClaim, CompanyDetails } from '../contract/company.js';
import { companySummaryOf } from '../contract/company-summary.js';
import { layoutRecord } from '../wire/record-layout.js';
import type { RecordBytes } from '../wire/record-bytes.js';
import { idSearchText, nameSearchText } from './company-search.js';

/** A company's row of the company list. */
export interface CompanyListing {
  /** The summary's bytes: JSON.stringify(companySummaryOf(record)), laid out like a record's. */
  summary: RecordBytes & { body: Buffer };
  status: string | null;
  onboardingLevel: string | null;
  riskScore: string | null;
  country: string | null;
  /** Instant key of updatedAt; '' when the record has none (it sorts before every instant). */
  sortKey: string;
  /** Normalized words of the company's names (src/store/company-search.ts). */
  searchNames: string;
  /** Normalized words of its registration numbers and ids, with their compact forms. */
  searchIds: string;
}

/** The list row of a valid company record. */
export function companyListingOf(company: CompanyDetails, gzipLevel: number | null): CompanyListing {
  const summary = companySummaryOf(company);
  const body = Buffer.from(JSON.stringify(summary), 'utf8');
  const claims: readonly CompanyClaim[] = company.companyClaims ?? [];
  const names = claims.flatMap((c) => (typeof c.companyName === 'string' ? [c.companyName] : []));
  const ids = claims.flatMap((c) => (typeof c.registrationNumber === 'string' ? [c.registrationNumber] : []));
  if (typeof company.externalId === 'string') ids.push(company.externalId);
  if (typeof company.externalCustomerId === 'string') ids.push(company.externalCustomerId);
  return {
    summary: { body, etag: summaryHash(body), ...layoutRecord(body, { documents: null, gzipLevel }) },
    status: summary.status,
    onboardingLevel: summary.onboardingLevel,
    riskScore: summary.riskScore,
    country: summary.country,
    sortKey: summary.updatedAt === null ? '' : instantKey(summary.updatedAt),
    searchNames: nameSearchText(names),
    searchIds: idSearchText(ids),
  };
}

/** The summary's ETag base: the same content hash the importer gives a record (prepare-record contentHash). */
function summaryHash(body: Buffer): string {
  return hash('sha256', body, 'base64url').slice(0, 27);
}
