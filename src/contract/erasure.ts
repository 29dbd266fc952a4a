/** The answer of the erase operation: what was (or, in a dry run, would be) removed, and the document files still to delete. */
import { Type, type Static } from '@sinclair/typebox';

const Count = (description: string) => Type.Integer({ minimum: 0, description });

export const ErasureResult = Type.Object(
  {
    customerId: Type.String({ description: 'the customer erased, as asked for' }),
    dryRun: Type.Boolean({ description: 'true: nothing was changed, the counts say what an erasure would remove' }),
    customers: Count('the customer record itself: 0 or 1 (a customer known only from executions has none)'),
    executions: Count("the customer's scenario executions"),
    alerts: Count('the alerts whose customerId is the customer'),
    documents: Count('distinct document files the removed records name'),
    filesDeleted: Count('document files deleted from the file store by this call (also those an earlier erasure of the project left pending)'),
    filesPending: Count('document files the file store could not delete yet: calling the erasure again deletes them'),
  },
  { $id: 'ErasureResult', title: 'ErasureResult', description: "the outcome of erasing a customer of the key's project" },
);
export type ErasureResult = Static<typeof ErasureResult>;
