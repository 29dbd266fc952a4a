/** The answer of the record push: the import's counts and the first rejected lines, each problem with its JSON Pointer. */
import { Type, type Static } from '@sinclair/typebox';

const Count = (description: string) => Type.Integer({ minimum: 0, description });

/** How many problems of rejected lines an answer lists; `rejected` counts them all. */
export const MAX_LISTED_REJECTS = 100;

export const ImportReject = Type.Object(
  {
    line: Type.Integer({ minimum: 1, description: 'the line of the body (1 is the first, blank lines counted)' }),
    pointer: Type.String({ description: "JSON Pointer into the line's envelope ('' for the whole line)" }),
    message: Type.String({ description: 'what is wrong there' }),
  },
  { $id: 'ImportReject', title: 'ImportReject', description: 'one problem of a rejected line' },
);
export type ImportReject = Static<typeof ImportReject>;

export const ImportResult = Type.Object(
  {
    read: Count('non-blank lines read'),
    stored: Count('records written (new, or newer than the stored version)'),
    unchanged: Count('records already stored with the same bytes: nothing written'),
    stale: Count('records older than the stored version: nothing written'),
    rejected: Count('lines refused (invalid envelope or record, or a record of another project than the key’s): nothing written'),
    warnings: Count('warnings of stored records (fields the contract tolerates but does not expect)'),
    rejects: Type.Array(ImportReject, { description: `the problems of the rejected lines, in line order, the first ${MAX_LISTED_REJECTS}` }),
    rejectsOmitted: Count(`problems past the first ${MAX_LISTED_REJECTS}, not listed`),
  },
  { $id: 'ImportResult', title: 'ImportResult', description: 'the outcome of pushing NDJSON envelopes: every valid line is stored, every other one is listed as rejected' },
);
export type ImportResult = Static<typeof ImportResult>;
