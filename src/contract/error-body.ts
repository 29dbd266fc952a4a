/** The error body of every operation's `default` response (SPEC part 7). */
import { Type, type Static } from '@sinclair/typebox';

export const ErrorIssue = Type.Object({ message: Type.String() }, { title: 'ErrorIssue' });
export type ErrorIssue = Static<typeof ErrorIssue>;

// The spec marks none of these required; the service always sends message and code, but
// the schema states only what the contract promises.
export const ErrorBody = Type.Object(
  {
    message: Type.Optional(Type.String()),
    code: Type.Optional(Type.String()),
    issues: Type.Optional(Type.Array(ErrorIssue)),
  },
  { $id: 'ErrorBody', title: 'ErrorBody', description: 'error body of the default response (SPEC part 7)' },
);
export type ErrorBody = Static<typeof ErrorBody>;
