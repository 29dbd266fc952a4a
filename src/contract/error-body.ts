/** The error body of every operation's `default` response (SPEC part 7). */
import { Type, type Static } from '@sinclair/typebox';
import { ERROR_CODES, type ErrorCode } from './error-codes.js';
import { StringEnum } from './string-enum.js';

export const ErrorIssue = Type.Object({ message: Type.String() }, { title: 'ErrorIssue' });
export type ErrorIssue = Static<typeof ErrorIssue>;

// The spec marks none of these required; the service always sends all three (ServiceError.body),
// so the document states what every answer holds, and `code` is one of the catalogue's.
export const ErrorBody = Type.Object(
  {
    message: Type.String(),
    code: StringEnum(Object.keys(ERROR_CODES) as ErrorCode[]),
    issues: Type.Array(ErrorIssue),
  },
  { $id: 'ErrorBody', title: 'ErrorBody', description: 'error body of the default response (SPEC part 7)' },
);
export type ErrorBody = Static<typeof ErrorBody>;
