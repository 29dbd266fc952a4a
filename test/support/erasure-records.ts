/** A customer's records holding distinctive personal strings, for the erasure and retention tests. */
import { alertLine, companyLine, executionLine } from './records.js';

/** Strings of the customer that must leave the store with it: its name, registration number, an alert note and an execution's rule data. */
export const PERSONAL = {
  name: 'Quorvandel Brightwater Holdings',
  registration: 'QXZ9917735',
  note: 'Yselmarth transfer suspicion',
  ruleData: 'Vantrobel beneficiary match',
} as const;

/** The company line with a name and registration number (searchable) and its document under `objectKey`. */
export function personalCompanyLine(project: string, id: string, objectKey: string, updatedAt = '2024-01-03T10:00:00Z'): string {
  const line = JSON.parse(companyLine(project, id, objectKey)) as { record: Record<string, unknown> };
  line.record.companyClaims = [{ companyName: PERSONAL.name, registrationNumber: PERSONAL.registration, country: 'DEU' }];
  line.record.updatedAt = updatedAt;
  return JSON.stringify(line);
}

/** An alert of the customer whose note carries a personal string and a document under `objectKey`. */
export function personalAlertLine(project: string, id: string, customerId: string, objectKey: string, updatedAt = '2024-03-02T00:00:00Z'): string {
  const line = JSON.parse(alertLine(project, id, customerId, objectKey)) as { record: { notes: { description: string | null }[]; updatedAt: string } };
  line.record.notes[0]!.description = PERSONAL.note;
  line.record.updatedAt = updatedAt;
  return JSON.stringify(line);
}

/** Execution number i of the customer, its rule's result holding a personal string. */
export function personalExecutionLine(project: string, customerId: string, i: number): string {
  const line = JSON.parse(executionLine(project, customerId, i)) as { record: { scenario_executions: { rules: { result: unknown }[] }[] } };
  line.record.scenario_executions[0]!.rules[0]!.result = { score: i, note: PERSONAL.ruleData };
  return JSON.stringify(line);
}

/** The customer's whole history: its record, `executions` executions and `alerts` alerts (ids numbered). */
export function personalHistory(project: string, id: string, executions: number, alerts: number): string[] {
  const lines = [personalCompanyLine(project, id, documentKey(id, 999))];
  for (let i = 0; i < executions; i++) lines.push(personalExecutionLine(project, id, i));
  for (let i = 0; i < alerts; i++) lines.push(personalAlertLine(project, alertId(id, i), id, documentKey(id, i)));
  return lines;
}

/** The objectKey (a uuid) of document number n of a customer: 999 its company document, i the note of its alert i. */
export function documentKey(customerId: string, n: number): string {
  return `d0c00000-0000-4000-8000-${customerId.slice(0, 8)}${String(n).padStart(4, '0')}`.toLowerCase();
}

/** The id of alert number i of a customer. */
export function alertId(customerId: string, i: number): string {
  return `${customerId.slice(0, 24)}${String(i).padStart(12, '0')}`;
}
