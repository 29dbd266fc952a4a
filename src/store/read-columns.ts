/** The columns a record read selects for each body need; the same SQL on SQLite and PostgreSQL but for how the body is read. */
import type { BodyNeed, StoredRead } from './store.js';

/** How a dialect selects the body column. */
export type BodySelect = (column: string) => string;

/** The body as stored: SQLite hands blobs over as bytes. */
export const BODY_AS_STORED: BodySelect = (column) => column;

/**
 * The body as UTF-8 text: node-postgres reads bytea only as hex text, twice the bytes on the
 * socket and a decode after, while a record body is UTF-8 JSON that text carries byte for byte.
 */
export const BODY_AS_TEXT: BodySelect = (column) => `convert_from(${column}, 'UTF8')`;

/** Select list per need, columns qualified by `alias` when given: a column not needed is read as NULL, never left out, so rows keep one shape. */
export function readColumns(need: BodyNeed, alias?: string, bodyAs: BodySelect = BODY_AS_STORED): string {
  const c = (name: string): string => (alias === undefined ? name : `${alias}.${name}`);
  const body = bodyAs(c('body'));
  switch (need) {
    case 'both':
      return `${c('etag')}, ${c('wire')}, ${body} AS body, ${c('gz')}`;
    case 'plain':
      return `${c('etag')}, ${c('wire')}, ${body} AS body, NULL AS gz`;
    case 'gzip':
      return `${c('etag')}, ${c('wire')}, ${c('gz')}, CASE WHEN ${c('gz')} IS NULL THEN ${body} END AS body`;
  }
}

/** A statement's text for each need, built once rather than per read. */
export function perNeed(sql: (columns: string) => string, bodyAs: BodySelect = BODY_AS_STORED): Record<BodyNeed, string> {
  return { both: sql(readColumns('both', undefined, bodyAs)), plain: sql(readColumns('plain', undefined, bodyAs)), gzip: sql(readColumns('gzip', undefined, bodyAs)) };
}

/** The columns readColumns selects, as a driver returns them: the body as bytes or as UTF-8 text. */
export interface ReadRow {
  etag: string;
  wire: string | null;
  body: Buffer | string | null;
  gz: Buffer | null;
}

/** A read row as the store answers it, the body as bytes whichever way its dialect read it. */
export function storedRead(row: ReadRow): StoredRead {
  return { etag: row.etag, wire: row.wire, body: typeof row.body === 'string' ? Buffer.from(row.body, 'utf8') : row.body, gz: row.gz };
}
