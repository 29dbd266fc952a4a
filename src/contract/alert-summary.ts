/**
 * An alert's summary, as the alert list answers it: the alert's top-level scalar fields and the
 * sizes of its lists, so a page never carries a whole (possibly megabyte) record.
 */
import { Type, type Static } from '@sinclair/typebox';
import { ALERT_FIELDS, type Alert } from './alert.js';
import { Nullable } from './schema-helpers.js';

// The alert's own scalar fields, as the record states them; its lists become counts.
const { notes: _notes, workflowSessionId: _workflowSessionId, ...SCALARS } = ALERT_FIELDS;
const Count = (description: string) => Type.Integer({ minimum: 0, description });

export const AlertSummary = Type.Object(
  {
    ...SCALARS,
    workflowSessionId: Nullable(Type.String({ description: 'null when the alert has none' })),
    counts: Type.Object(
      {
        notes: Count('notes of the alert'),
        audits: Count('entries of its audit trail'),
        screeningHits: Count('hits of its screening result (`screeningProviderData.searchResult.hits`)'),
        results: Count('its results'),
        transactions: Count('its transactions'),
      },
      { title: 'AlertCounts' },
    ),
  },
  { $id: 'AlertSummary', title: 'AlertSummary', description: "an alert's top-level fields and the sizes of its lists (GET /alerts)" },
);
export type AlertSummary = Static<typeof AlertSummary>;

/** The summary of a valid alert record; every key present, an absent optional field as null. */
export function alertSummaryOf(alert: Alert): AlertSummary {
  return {
    id: alert.id,
    severity: alert.severity,
    category: alert.category,
    type: alert.type,
    status: alert.status,
    name: alert.name,
    description: alert.description,
    assignedTo: alert.assignedTo,
    seen: alert.seen,
    customerId: alert.customerId,
    cmsProjectId: alert.cmsProjectId,
    createdAt: alert.createdAt,
    updatedAt: alert.updatedAt,
    createdBy: alert.createdBy,
    updatedBy: alert.updatedBy,
    reason: alert.reason,
    workflowSessionId: alert.workflowSessionId ?? null,
    counts: {
      notes: alert.notes?.length ?? 0,
      audits: alert.audits.length,
      screeningHits: alert.screeningProviderData?.searchResult.hits?.length ?? 0,
      results: alert.results?.length ?? 0,
      transactions: alert.transactions?.length ?? 0,
    },
  };
}
