/** How many of a project's alerts match a filter, in all and by status (GET /alerts/counts). */
import { Type, type Static } from '@sinclair/typebox';
import { ALERT_STATUSES, type AlertStatus } from './enums.js';

const Count = (description: string) => Type.Integer({ minimum: 0, description });

export const AlertCounts = Type.Object(
  {
    total: Count('alerts matching the filters'),
    byStatus: Type.Object(
      Object.fromEntries(ALERT_STATUSES.map((s) => [s, Count(`of them with status ${s}`)])) as Record<AlertStatus, ReturnType<typeof Count>>,
      { title: 'AlertCountsByStatus', description: 'every status, zero included', additionalProperties: false },
    ),
  },
  { $id: 'AlertCounts', title: 'AlertCounts', description: "how many of the project's alerts match the filters, in all and by status (GET /alerts/counts)", additionalProperties: false },
);
export type AlertCounts = Static<typeof AlertCounts>;

/** The counts answer of per-status counts; a status with no alert counts zero. */
export function alertCountsOf(byStatus: ReadonlyMap<string, number>): AlertCounts {
  const counts = Object.fromEntries(ALERT_STATUSES.map((s) => [s, byStatus.get(s) ?? 0])) as AlertCounts['byStatus'];
  return { total: Object.values(counts).reduce((a, b) => a + b, 0), byStatus: counts };
}
