/** Small hand-written records for HTTP tests: one company, one individual, one alert, executions from a template. */

/** The company fixture of test/fixtures/small.ndjson, by project. */
export function companyLine(project: string, id: string, objectKey: string): string {
  return JSON.stringify({
    kind: 'customer',
    record: {
      id,
      cmsProjectId: project,
      riskScore: 'High',
      type: 'Company',
      onboardingLevel: 'KYB',
      status: 'Active',
      createdAt: '2024-01-02T10:00:00+02:00',
      updatedAt: '2024-01-03T10:00:00Z',
      beneficiaries: { individualBeneficiaries: [], companyBeneficiaries: null },
      companyClaims: [],
      documents: [
        {
          documentId: '6f1c9d2e-8a7b-4c3d-9e2f-1a0b9c8d7e6f',
          customerId: id,
          documentType: 'company_document',
          metadata: { documentType: 'INCORPORATION_CERT', mediaType: 'application/pdf' },
          document: {
            id: '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a',
            objectKey,
            filename: 'certificate of incorporation.pdf',
            mimetype: 'application/pdf',
            description: 'Certificate',
            cmsProjectId: project,
            createdAt: '2024-01-02T10:00:00Z',
            createdBy: 'a',
            presignedUrl: 'https://stored.example/never-served',
          },
        },
      ],
    },
  });
}

/** An individual customer (kept, but not a company). */
export function individualLine(project: string, id: string): string {
  return JSON.stringify({ kind: 'customer', record: { id, cmsProjectId: project, type: 'Individual', status: 'Active' } });
}

/** An alert with one note document. */
export function alertLine(project: string, id: string, customerId: string, objectKey: string): string {
  const doc = {
    id: '3c1f9d2e-8a7b-4c3d-9e2f-1a0b9c8d7e60',
    objectKey,
    filename: 'note.png',
    mimetype: 'image/png',
    description: null,
    cmsProjectId: project,
    createdAt: '2024-03-01T00:00:00Z',
    createdBy: 'analyst',
    presignedUrl: 'https://stored.example/never-served-either',
  };
  const alert = {
    id,
    severity: 'High',
    category: 'Ongoing monitoring',
    type: 'Transaction Monitoring',
    status: 'Under Investigation',
    name: 'Large transfer',
    description: null,
    assignedTo: null,
    seen: false,
    customerId,
    cmsProjectId: project,
    createdAt: '2024-03-01T00:00:00Z',
    updatedAt: '2024-03-02T00:00:00+01:00',
    createdBy: 'system',
    updatedBy: 'analyst',
    reason: null,
    notes: [
      {
        id: '4d1f9d2e-8a7b-4c3d-9e2f-1a0b9c8d7e61',
        name: 'Checked',
        description: null,
        data: null,
        cmsProjectId: project,
        createdAt: '2024-03-01T00:00:00Z',
        updatedAt: '2024-03-01T00:00:00Z',
        createdBy: 'analyst',
        updatedBy: 'analyst',
        documents: [doc],
      },
    ],
    audits: [{ timestamp: '2024-03-01T00:00:00Z', action: 'create', author: null, record: { status: 'Open' } }],
    transactions: [{ id: 't1', transactionType: 'crypto', customerId, transactionInfo: { currencyCode: 'BTC', amount: '1.5', direction: 'IN' } }],
  };
  return JSON.stringify({ kind: 'alert', record: alert });
}

const STATUSES = ['valid', 'not-valid', 'error', 'unknown'] as const;
const OBJECT_TYPES = ['PrivacyPreservingMonitoring', 'IndividualMonitoring', 'TransactionMonitoring', 'TFHE', 'OffChainZKP', 'ChallengeQuery'] as const;

/** Execution number i of a customer: status, scenario and rule type cycle; some share a timestamp, some carry offsets. */
export function executionLine(project: string, customerId: string, i: number): string {
  const minute = Math.floor(i / 2); // pairs share an instant: ties are broken by execution_id
  const at = new Date(Date.UTC(2024, 0, 1, 0, minute)).toISOString().replace('.000Z', 'Z');
  // Every third execution is written with a +02:00 offset: same instant, other spelling.
  const written = i % 3 === 0 ? at.replace(/T(\d\d)/, (_m, h: string) => `T${String((Number(h) + 2) % 24).padStart(2, '0')}`).replace('Z', '+02:00') : at;
  const dayFix = i % 3 === 0 && Number(at.slice(11, 13)) >= 22 ? shiftDay(written) : written;
  const id = `exec-${String(i).padStart(4, '0')}`;
  const scenario = `scenario-${i % 3}`;
  return JSON.stringify({
    kind: 'execution',
    customerId,
    cmsProjectId: project,
    record: {
      execution_id: id,
      execution_status: STATUSES[i % 4],
      last_execution_date: dayFix,
      scenario_executions: [
        {
          scenarioId: scenario,
          scenarioStatus: STATUSES[i % 4],
          executed_at: dayFix,
          rules: [
            {
              id: `${id}-r`,
              execution_id: id,
              cms_object_id: 'obj',
              cms_scenario_id: scenario,
              object_type: OBJECT_TYPES[i % 6],
              result: { score: i },
              rule_data: null,
              status: STATUSES[i % 4],
              executed_at: dayFix,
              created_at: dayFix,
              documents: null,
            },
          ],
        },
      ],
    },
  });
}

function shiftDay(dateTime: string): string {
  const d = new Date(`${dateTime.slice(0, 10)}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10) + dateTime.slice(10);
}

/**
 * One company's import: its record, `executions` executions, and an alert every `alertEvery`
 * executions (ids aa5c2a4e-...-<execution number>), for tests that need a file of some size.
 */
export function companyHistoryLines(project: string, companyId: string, objectKey: string, executions: number, alertEvery: number): string[] {
  const lines = [companyLine(project, companyId, objectKey)];
  for (let i = 0; i < executions; i++) {
    lines.push(executionLine(project, companyId, i));
    if (i % alertEvery === 0) lines.push(alertLine(project, `aa5c2a4e-3d1f-4a6b-9c8d-${String(i).padStart(12, '0')}`, companyId, objectKey));
  }
  return lines;
}
