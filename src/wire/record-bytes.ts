/** A stored record's bytes, as the importer writes them, the store moves them and answers are rendered from them. */

/** The bytes of one record; a field a read did not fetch (its answer did not need it) is null. */
export interface RecordBytes {
  /** Content hash of `body`, used for strong ETags and to detect unchanged re-imports. */
  etag: string;
  /** The record's exact JSON, as imported. */
  body: Buffer | null;
  /** Where per-request values are spliced in and where the deflate pieces are (src/wire/record-layout.ts); null when none. */
  layout: string | null;
  /** The record's JSON as raw deflate pieces, one per static slice between splices; null when not stored. */
  deflated: Buffer | null;
}

/** The fields of a record a read may leave out. */
export type ByteField = 'body' | 'layout' | 'deflated';

/** How a read fetches a field: always, or only for a record stored without deflate pieces. */
export type Fetch = 'always' | 'withoutDeflated';

/** What a read fetches beside the etag; a field not named is read as null. */
export type ReadFields = Readonly<Partial<Record<ByteField, Fetch>>>;

/** No field beside the etag: checking that a kept answer is still current. */
export const ETAG_ONLY: ReadFields = Object.freeze({});

/** Every field: copying, tests. */
export const ALL_FIELDS: ReadFields = Object.freeze({ body: 'always', layout: 'always', deflated: 'always' });
