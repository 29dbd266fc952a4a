/**
 * Alert record (SPEC 2.4): the main fields, notes with their documents, and the audit trail.
 * The audit `record` is derived from the same field list (Type.Partial) so a snapshot can
 * never drift from the alert it snapshots.
 */
import { Type, type Static } from '@sinclair/typebox';
import { AlertCategory, AlertSeverity, AlertStatus, AlertType, AuditAction } from './enums.js';
import { ResultItem } from './alert-results.js';
import { DuplicateData } from './duplicate-data.js';
import { DateTime, Nullable, Uuid } from './schema-helpers.js';
import { ScreeningProviderData } from './screening.js';
import { Transaction } from './transactions.js';

const Str = Type.String();
const Opt = Type.Optional;

export const AlertDocument = Type.Object(
  {
    id: Uuid(),
    objectKey: Uuid(),
    filename: Str,
    mimetype: Str,
    description: Nullable(Str),
    cmsProjectId: Str,
    createdAt: DateTime(),
    createdBy: Str,
    presignedUrl: Str,
  },
  { title: 'AlertDocument' },
);
export type AlertDocument = Static<typeof AlertDocument>;

export const Note = Type.Object(
  {
    id: Uuid(),
    name: Str,
    description: Nullable(Str),
    // "any value, nullable": no constraint at all.
    data: Opt(Type.Unknown()),
    cmsProjectId: Str,
    createdAt: DateTime(),
    updatedAt: DateTime(),
    createdBy: Str,
    updatedBy: Str,
    documents: Opt(Type.Array(AlertDocument)),
  },
  { title: 'Note' },
);
export type Note = Static<typeof Note>;

// The alert fields "above" the audit entry description, i.e. the main table without the
// audit trail itself (a snapshot holding audits would be recursive).
export const ALERT_FIELDS = {
  id: Uuid(),
  severity: AlertSeverity,
  category: AlertCategory,
  type: AlertType,
  status: AlertStatus,
  name: Str,
  description: Nullable(Str),
  assignedTo: Nullable(Str),
  seen: Type.Boolean(),
  customerId: Uuid(),
  cmsProjectId: Str,
  createdAt: DateTime(),
  updatedAt: DateTime(),
  createdBy: Str,
  updatedBy: Str,
  reason: Nullable(Str),
  workflowSessionId: Opt(Nullable(Str)),
  notes: Opt(Type.Array(Note)),
};

// Open: a snapshot may carry fields beyond the alert's (e.g. the audits or screening data of
// the time); those are not reported.
export const AlertSnapshot = Type.Partial(Type.Object(ALERT_FIELDS), {
  title: 'AlertSnapshot',
  description: 'snapshot of the alert; every alert field optional, same types and allowed values',
  additionalProperties: true,
});
export type AlertSnapshot = Static<typeof AlertSnapshot>;

export const AuditEntry = Type.Object(
  {
    timestamp: DateTime(),
    action: AuditAction,
    author: Opt(Nullable(Str)),
    record: AlertSnapshot,
  },
  { title: 'AuditEntry' },
);
export type AuditEntry = Static<typeof AuditEntry>;

export const Alert = Type.Object(
  {
    ...ALERT_FIELDS,
    audits: Type.Array(AuditEntry),
    screeningProviderData: Opt(Nullable(ScreeningProviderData)),
    duplicateData: Opt(Nullable(DuplicateData)),
    results: Opt(Nullable(Type.Array(ResultItem))),
    transactions: Opt(Nullable(Type.Array(Transaction))),
  },
  { $id: 'Alert', title: 'Alert', description: 'Alert record (SPEC 2.4)' },
);
export type Alert = Static<typeof Alert>;
