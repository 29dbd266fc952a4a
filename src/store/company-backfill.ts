/**
 * The company list of a store whose companies were written before the list existed: its migration
 * leaves a meta row behind, and the first writable open lists every stored company from its JSON,
 * in chunks of BACKFILL_CHUNK (one transaction each), then removes the row.
 */
import type { CompanyDetails } from '../contract/company.js';
import { companyListingOf, type CompanyListing } from './company-listing.js';

/** The meta row that says the backfill is still to run. */
export const COMPANY_BACKFILL_KEY = 'backfill:companies';
/** Companies listed per transaction. */
export const BACKFILL_CHUNK = 500;
/** zlib level of the summary pieces of a company that was stored with pieces (the import's default). */
const BACKFILL_GZIP_LEVEL = 6;

/** The list row of a stored company's JSON; undefined when the bytes are not a JSON object. */
export function listingOfStored(body: Buffer, storedWithPieces: boolean): CompanyListing | undefined {
  try {
    const record: unknown = JSON.parse(body.toString('utf8'));
    if (record === null || typeof record !== 'object' || Array.isArray(record)) return undefined;
    return companyListingOf(record as CompanyDetails, storedWithPieces ? BACKFILL_GZIP_LEVEL : null);
  } catch {
    // Stored records were validated at import; bytes that are not one are left off the list, not fatal to the open.
    return undefined;
  }
}
