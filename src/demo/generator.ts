// The demo generator: a lazy stream of NDJSON lines, one envelope each. Per project it emits
// every company followed by its executions, then every individual followed by theirs, then the
// project's alerts, so a customer always precedes the records that refer to it. Only one record
// exists in memory at a time, whatever the scale.
import { alertRecord, type AlertContext } from './alerts.js';
import { companyRecord, type CustomerRecord } from './companies.js';
import { executionCount, executionRecord } from './executions.js';
import { type CustomerKind, customerIdentity } from './identities.js';
import { individualRecord } from './individuals.js';
import { type DemoDocumentRef, type DemoOptions, type ResolvedDemoOptions, resolveDemoOptions } from './options.js';
import { type ProjectContext, createProject } from './projects.js';
import { createDemoFaker } from './seeding.js';
import type { Faker } from '@faker-js/faker';

function customerLine(record: CustomerRecord): string {
  return `{"kind":"customer","record":${JSON.stringify(record)}}\n`;
}

function* customerWithExecutions(faker: Faker, opts: ResolvedDemoOptions, project: ProjectContext, kind: CustomerKind, index: number): Generator<string> {
  const record = kind === 'company' ? companyRecord(faker, project, index, opts.onDocument, opts.extraFields) : individualRecord(faker, project, index, opts.onDocument);
  yield customerLine(record);
  const customer = customerIdentity(project, kind, index);
  const total = executionCount(opts, project, customer);
  // The envelope names the customer and project once; the record is the bare execution object.
  const head = `{"kind":"execution","customerId":${JSON.stringify(customer.id)},"cmsProjectId":${JSON.stringify(project.id)},"record":`;
  for (let n = 0; n < total; n += 1) yield `${head}${JSON.stringify(executionRecord(faker, project, customer, n, total))}}\n`;
}

/**
 * Generates the demo data set as NDJSON lines (each ending in "\n"), lazily: pipe it with
 * `Readable.from(generateDemo(options))`. Same seed and options give byte-identical output.
 * `onDocument` is called for a record's stored files before that record's line is yielded.
 */
export function* generateDemo(options: DemoOptions = {}): Generator<string, void, undefined> {
  const opts = resolveDemoOptions(options);
  const faker = createDemoFaker();
  for (let p = 0; p < opts.projects.length; p += 1) {
    const project = createProject(opts, p);
    for (let i = 0; i < opts.companies; i += 1) yield* customerWithExecutions(faker, opts, project, 'company', i);
    for (let i = 0; i < opts.individuals; i += 1) yield* customerWithExecutions(faker, opts, project, 'individual', i);
    const ctx: AlertContext = { faker, project, sink: opts.onDocument, extraFields: opts.extraFields, largeAlertRatio: opts.largeAlertRatio, perProject: opts.alerts };
    for (let i = 0; i < opts.alerts; i += 1) yield `{"kind":"alert","record":${JSON.stringify(alertRecord(ctx, i))}}\n`;
  }
}

/**
 * Every stored document file the demo with these options references, in output order, with the
 * record line that names them (lines naming none are skipped; the generator runs again, nothing kept).
 */
export function* demoDocuments(options: DemoOptions = {}): Generator<{ line: string; documents: DemoDocumentRef[] }, void, undefined> {
  let pending: DemoDocumentRef[] = [];
  const outer = options.onDocument;
  const lines = generateDemo({
    ...options,
    onDocument: (doc) => {
      pending.push(doc);
      outer?.(doc);
    },
  });
  for (const line of lines) {
    if (pending.length === 0) continue;
    yield { line, documents: pending };
    pending = [];
  }
}
