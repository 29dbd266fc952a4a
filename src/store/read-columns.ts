/** The columns a record read selects for each body need; the same SQL on SQLite and PostgreSQL. */
import type { BodyNeed } from './store.js';

/** Select list per need, columns qualified by `alias` when given: a column not needed is read as NULL, never left out, so rows keep one shape. */
export function readColumns(need: BodyNeed, alias?: string): string {
  const c = (name: string): string => (alias === undefined ? name : `${alias}.${name}`);
  switch (need) {
    case 'both':
      return `${c('etag')}, ${c('wire')}, ${c('body')}, ${c('gz')}`;
    case 'plain':
      return `${c('etag')}, ${c('wire')}, ${c('body')}, NULL AS gz`;
    case 'gzip':
      return `${c('etag')}, ${c('wire')}, ${c('gz')}, CASE WHEN ${c('gz')} IS NULL THEN ${c('body')} END AS body`;
  }
}

/** A statement's text for each need, built once rather than per read. */
export function perNeed(sql: (columns: string) => string): Record<BodyNeed, string> {
  return { both: sql(readColumns('both')), plain: sql(readColumns('plain')), gzip: sql(readColumns('gzip')) };
}
