/** One item of a project's change feed (GET /changes): which record changed, how, and when. */
import { Type, type Static } from '@sinclair/typebox';
import { StringEnum } from './string-enum.js';
import { DateTime, Nullable } from './schema-helpers.js';

export const CHANGE_KINDS = ['company', 'customer', 'alert', 'execution'] as const;
export const CHANGE_OPERATIONS = ['upsert', 'erase'] as const;

export const Change = Type.Object(
  {
    kind: StringEnum(CHANGE_KINDS, { title: 'ChangeKind', description: 'company: a customer of type Company; customer: any other customer record' }),
    id: Type.String({ description: 'the record id (an execution: its execution_id)' }),
    customerId: Nullable(Type.String({ description: "an execution's or alert's customer; null for customers and companies" })),
    operation: StringEnum(CHANGE_OPERATIONS, { title: 'ChangeOperation' }),
    etag: Nullable(Type.String({ description: "the record's ETag after the change, as its read answers it (without quotes); null once erased" })),
    changedAt: DateTime({ description: 'when the service stored the change (UTC)' }),
  },
  { $id: 'Change', title: 'Change', description: 'one change of a record of the project' },
);
export type Change = Static<typeof Change>;
