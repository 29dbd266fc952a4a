/**
 * The columns that hold a record's bytes, and the select list of a read that fetches some of them;
 * the same SQL on SQLite and PostgreSQL but for how the body is read. Which fields a read fetches
 * is the caller's (src/wire/render.ts fieldsFor); the store only maps them to columns.
 */
import type { ByteField, ReadFields, RecordBytes } from '../wire/record-bytes.js';

/** The one mapping from a record's byte fields to their columns (the columns keep the names they were created with). */
export const RECORD_COLUMNS: Readonly<Record<'etag' | ByteField, string>> = { etag: 'etag', body: 'body', layout: 'wire', deflated: 'gz' };

/** The columns of an alert's summary bytes (the alert list answers them, src/store/alert-page-sql.ts). */
export const SUMMARY_COLUMNS: Readonly<Record<'etag' | ByteField, string>> = {
  etag: 'summary_etag',
  body: 'summary_body',
  layout: 'summary_wire',
  deflated: 'summary_gz',
};

const FIELDS: readonly ByteField[] = ['layout', 'body', 'deflated'];

/** How a dialect selects the body column. */
export type BodySelect = (column: string) => string;

/** The body as stored: SQLite hands blobs over as bytes. */
export const BODY_AS_STORED: BodySelect = (column) => column;

/**
 * The body as UTF-8 text: node-postgres reads bytea only as hex text, twice the bytes on the
 * socket and a decode after, while a record body is UTF-8 JSON that text carries byte for byte.
 */
export const BODY_AS_TEXT: BodySelect = (column) => `convert_from(${column}, 'UTF8')`;

/**
 * The select list of `fields`, columns qualified by `alias` when given, each named for its field:
 * a field not asked for is read as NULL, never left out, so rows keep one shape.
 */
export function selectFields(fields: ReadFields, alias?: string, bodyAs: BodySelect = BODY_AS_STORED, columns = RECORD_COLUMNS): string {
  const c = (field: 'etag' | ByteField): string => (alias === undefined ? columns[field] : `${alias}.${columns[field]}`);
  const list = [`${c('etag')} AS etag`];
  for (const field of FIELDS) {
    const value = field === 'body' ? bodyAs(c(field)) : c(field);
    const fetch = fields[field];
    if (fetch === undefined) list.push(`NULL AS ${field}`);
    else if (fetch === 'always') list.push(`${value} AS ${field}`);
    else list.push(`CASE WHEN ${c('deflated')} IS NULL THEN ${value} END AS ${field}`);
  }
  return list.join(', ');
}

/** A short name of a selection of fields, for prepared statement names and caches. */
export function fieldsKey(fields: ReadFields): string {
  return FIELDS.map((f) => (fields[f] === undefined ? 'n' : fields[f] === 'always' ? 'a' : 'w')).join('');
}

/** A value built once per selection of fields (statement text, prepared statement), not per read. */
export function perFields<T>(build: (fields: ReadFields) => T): (fields: ReadFields) => T {
  const built = new WeakMap<ReadFields, T>();
  return (fields) => {
    let value = built.get(fields);
    if (value === undefined) {
      value = build(fields);
      built.set(fields, value);
    }
    return value;
  };
}

/** A row of selectFields as a driver returns it: the body as bytes, or as UTF-8 text on PostgreSQL. */
export type FieldRow = Omit<RecordBytes, 'body'> & { body: Buffer | string | null };

/** A read row as the store answers it, the body as bytes whichever way its dialect read it. */
export function recordOf(row: FieldRow): RecordBytes {
  return { etag: row.etag, layout: row.layout, body: typeof row.body === 'string' ? Buffer.from(row.body, 'utf8') : row.body, deflated: row.deflated };
}

/** The columns of a record's bytes, in the order writes list them (recordValues) and exports read them. */
export const BYTE_COLUMNS = [RECORD_COLUMNS.etag, RECORD_COLUMNS.body, RECORD_COLUMNS.layout, RECORD_COLUMNS.deflated] as const;

/** BYTE_COLUMNS as a select or insert list. */
export const RECORD_COLUMN_LIST = BYTE_COLUMNS.join(', ');

/** The SET clause of an upsert that takes a record's new bytes. */
export const RECORD_COLUMN_UPDATES = BYTE_COLUMNS.map((c) => `${c} = excluded.${c}`).join(', ');

/** A written record's bytes in RECORD_COLUMN_LIST order. */
export function recordValues(r: RecordBytes): [string, Buffer | null, string | null, Buffer | null] {
  return [r.etag, r.body, r.layout, r.deflated];
}

/** The bytes of an exported row that read BYTE_COLUMNS: all of them, as stored. */
export function recordOfColumns(r: Record<string, unknown>): RecordBytes & { body: Buffer } {
  const deflated = r[RECORD_COLUMNS.deflated];
  return {
    etag: r[RECORD_COLUMNS.etag] as string,
    body: r[RECORD_COLUMNS.body] as Buffer,
    layout: r[RECORD_COLUMNS.layout] as string | null,
    deflated: deflated === null ? null : (deflated as Buffer),
  };
}
