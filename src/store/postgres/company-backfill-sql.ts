/** The company list backfill on PostgreSQL (see company-backfill.ts), in chunks of one transaction each. */
import type pg from 'pg';
import { BACKFILL_CHUNK, COMPANY_BACKFILL_KEY, listingOfStored } from '../company-backfill.js';
import type { CompanyListingRow } from '../store.js';
import { writePlan } from './batch-sql.js';
import { inTransaction } from './in-transaction.js';

/** Lists every stored company when the migration asked for it; replicas doing it together write the same rows. */
export async function backfillPostgresCompanies(pool: pg.Pool): Promise<void> {
  const pending = await pool.query('SELECT 1 FROM meta WHERE key = $1', [COMPANY_BACKFILL_KEY]);
  if (pending.rowCount === 0) return;
  let after: [string, string] = ['', ''];
  for (;;) {
    // Rows read FOR SHARE: an import cannot change a company between its read and its listing.
    const last = await inTransaction(pool, async (client): Promise<[string, string] | undefined> => {
      const r = await client.query<{ project: string; customer_key: string; body: Buffer; pieces: boolean }>(
        `SELECT project, customer_key, body, gz IS NOT NULL AS pieces FROM customers
         WHERE has_record AND is_company AND (project, customer_key) > ($1, $2)
         ORDER BY project, customer_key LIMIT $3 FOR SHARE`,
        [...after, BACKFILL_CHUNK],
      );
      const listings: CompanyListingRow[] = [];
      for (const row of r.rows) {
        const listing = listingOfStored(row.body, row.pieces);
        if (listing !== undefined) listings.push({ kind: 'companyListing', project: row.project, key: row.customer_key, listing });
      }
      await writePlan(client, { outcomes: [], customers: [], alerts: [], executions: [], namedCustomers: [], companyListings: listings });
      const end = r.rows[r.rows.length - 1];
      if (r.rows.length < BACKFILL_CHUNK || end === undefined) {
        await client.query('DELETE FROM meta WHERE key = $1', [COMPANY_BACKFILL_KEY]);
        return undefined;
      }
      return [end.project, end.customer_key];
    });
    if (last === undefined) return;
    after = last;
  }
}
