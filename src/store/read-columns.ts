/** The columns a record read selects for each body need; the same SQL on SQLite and PostgreSQL. */
import type { BodyNeed } from './store.js';

/** Select list per need: a column not needed is read as NULL, never left out, so rows keep one shape. */
export const READ_COLUMNS: Record<BodyNeed, string> = {
  both: 'etag, wire, body, gz',
  plain: 'etag, wire, body, NULL AS gz',
  gzip: 'etag, wire, gz, CASE WHEN gz IS NULL THEN body END AS body',
};

/** A statement's text for each need, built once rather than per read. */
export function perNeed(sql: (columns: string) => string): Record<BodyNeed, string> {
  return { both: sql(READ_COLUMNS.both), plain: sql(READ_COLUMNS.plain), gzip: sql(READ_COLUMNS.gzip) };
}
