/** `compliance-read demo`: generates the demo data set, imports it, stores its files and mints demo keys. */
import { storeOptionsOf } from '../config/load-config.js';
import { createWriteStream } from 'node:fs';
import { chmod, mkdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { once } from 'node:events';
import { Command } from 'commander';
import type { Config } from '../config/settings.js';
import type { DemoOptions } from '../demo/index.js';
import { companySummaryOf } from '../contract/company-summary.js';
import type { CompanyDetails } from '../contract/index.js';
import { createApiKey } from '../store/api-keys.js';
import { fileStoreOf, filesDirOf, publicUrlOf } from '../app/file-stores.js';
import { importFiles } from '../ingest/importer.js';
import type { ImportSummary } from '../ingest/import-summary.js';
import { defaultWorkers } from '../ingest/default-workers.js';
import { openStore } from '../store/open-store.js';
import type { Store } from '../store/store.js';
import { recordKey } from '../contract/record-key.js';
import { configFrom, withSettings } from './config-options.js';
import { progressReporter } from './progress.js';

/** Ids worth showing in the printed curl lines, per project. */
interface Sample {
  company?: string;
  /** A word of a company's name, to search for. */
  companyWord?: string;
  alert?: string;
  customer?: string;
}

const int = (v: string): number => {
  if (!/^\d+$/.test(v)) throw new Error(`expected a whole number, got ${v}`);
  return Number(v);
};

/** Builds the demo command. */
export function demoCommand(): Command {
  return withSettings(new Command('demo'), ['databaseUrl', 'filesDir', 'port', 'publicUrl', 'basePath', 'gzipLevel'])
    .description('generate a realistic demo data set (deterministic by --seed), import it, store its files and print a key per project')
    .option('--seed <n>', 'generator seed', int)
    .option('--projects <n>', 'number of projects', int)
    .option('--companies <n>', 'companies per project', int)
    .option('--individuals <n>', 'individual customers per project', int)
    .option('--alerts <n>', 'alerts per project', int)
    .option('--executions-per-customer <n>', 'mean executions of an ordinary customer', int)
    .option('--heavy-customer-executions <n>', 'executions of the one heavy customer', int)
    .option('--large-alert-ratio <r>', 'share of near-1 MB alerts', Number)
    .option('--out <file>', 'where to write the NDJSON (default: demo.ndjson beside the store)')
    .option('--no-import', 'only write the NDJSON')
    .option('--no-files', 'do not store the document files')
    .option('--no-keys', 'do not mint demo keys')
    .action(async (opts: Record<string, unknown>) => {
      const config = configFrom(opts);
      await runDemo(config, {
        generator: {
          seed: opts.seed as number | undefined,
          projects: opts.projects as number | undefined,
          companies: opts.companies as number | undefined,
          individuals: opts.individuals as number | undefined,
          alerts: opts.alerts as number | undefined,
          executionsPerCustomer: opts.executionsPerCustomer as number | undefined,
          heavyCustomerExecutions: opts.heavyCustomerExecutions as number | undefined,
          largeAlertRatio: opts.largeAlertRatio as number | undefined,
        },
        out: opts.out as string | undefined,
        import: opts.import !== false,
        files: opts.files !== false,
        keys: opts.keys !== false,
      });
    });
}

/** What a demo run does. */
export interface DemoRun {
  generator: DemoOptions;
  out?: string;
  import: boolean;
  files: boolean;
  keys: boolean;
}

/** Writes, imports and prepares the demo; prints keys and ready curl lines. */
export async function runDemo(config: Config, run: DemoRun): Promise<ImportSummary | undefined> {
  // The generator (and faker) load only here, so other commands start without them.
  const { demoDocuments, sampleFileFor } = await import('../demo/index.js');
  const generator = Object.fromEntries(Object.entries(run.generator).filter(([, v]) => v !== undefined)) as DemoOptions;
  const out = resolve(run.out ?? join(dirname(filesDirOf(config)), 'demo.ndjson'));
  // The data directory holds personal data (the store, files, this file): its user's alone when made here.
  if ((await mkdir(dirname(out), { recursive: true, mode: 0o700 })) !== undefined) await chmod(dirname(out), 0o700);
  const samples = await writeNdjson(out, generator);
  process.stdout.write(`wrote ${out}\n`);
  if (!run.import) return undefined;
  const store = await openStore(config.databaseUrl, { ...storeOptionsOf(config, 'bulk writes'), bulkWrites: true });
  try {
    const progress = progressReporter(process.stderr);
    const summary = await importFiles(store, [out], { gzipLevel: config.gzipLevel === 0 ? null : config.gzipLevel, onProgress: progress.onProgress, workers: defaultWorkers() });
    progress.done();
    process.stdout.write(
      `imported: read ${summary.read}, stored ${summary.stored}, unchanged ${summary.unchanged}, stale ${summary.stale}, rejected ${summary.rejected}, warnings ${summary.warnings}\n`,
    );
    if (run.files) {
      const { local } = await fileStoreOf({ ...config, fileStore: 'local' }, await store.secret());
      let n = 0;
      for (const { line, documents } of demoDocuments(generator)) {
        // A record the store does not hold (erased since an earlier run) gets no file back.
        if (!(await holdsRecord(store, JSON.parse(line) as DemoEnvelope))) continue;
        for (const doc of documents) await local!.putBytes(doc.cmsProjectId, doc.objectKey, sampleFileFor(doc.mimetype).bytes);
        n += documents.length;
      }
      process.stdout.write(`stored ${n} document files in ${local!.dir}\n`);
    }
    if (run.keys) await printKeys(config, store, samples);
    return summary;
  } finally {
    await store.close();
  }
}

/** A demo line's envelope, as far as its owner goes. */
interface DemoEnvelope {
  kind: 'customer' | 'alert' | 'execution';
  customerId?: string;
  cmsProjectId?: string;
  record: { id?: string; cmsProjectId?: string };
}

/** Whether the store holds the record of `env` (an execution: its customer). */
async function holdsRecord(store: Store, env: DemoEnvelope): Promise<boolean> {
  const project = env.cmsProjectId ?? env.record.cmsProjectId ?? '';
  if (env.kind === 'alert') return (await store.getAlert(project, recordKey(env.record.id ?? ''))) !== undefined;
  return store.customerKnown(project, recordKey((env.kind === 'execution' ? env.customerId : env.record.id) ?? ''));
}

/** Streams the generator to a file (with backpressure), noting a sample id of each kind per project. */
async function writeNdjson(out: string, options: DemoOptions): Promise<Map<string, Sample>> {
  const { generateDemo } = await import('../demo/index.js');
  const samples = new Map<string, Sample>();
  const stream = createWriteStream(out, { mode: 0o600 });
  for (const line of generateDemo(options)) {
    noteSample(samples, line);
    if (!stream.write(line.endsWith('\n') ? line : `${line}\n`)) await once(stream, 'drain');
  }
  stream.end();
  await once(stream, 'finish');
  return samples;
}

function noteSample(samples: Map<string, Sample>, line: string): void {
  // Cheap prefix checks: only the first record of each kind per project is parsed.
  const kind = line.startsWith('{"kind":"customer"') ? 'company' : line.startsWith('{"kind":"alert"') ? 'alert' : line.startsWith('{"kind":"execution"') ? 'customer' : undefined;
  if (kind === undefined || samples.size > 16) return;
  const env = JSON.parse(line) as { customerId?: string; cmsProjectId?: string; record: { id?: string; cmsProjectId?: string; type?: string } };
  const project = env.cmsProjectId ?? env.record.cmsProjectId ?? '';
  const s = samples.get(project) ?? {};
  if (kind === 'company' && env.record.type === 'Company') {
    s.company ??= env.record.id;
    s.companyWord ??= companySummaryOf(env.record as unknown as CompanyDetails).companyName?.split(/[^\p{L}\p{N}]+/u).find((w) => w.length >= 4);
  }
  if (kind === 'alert') s.alert ??= env.record.id;
  if (kind === 'customer') s.customer ??= env.customerId;
  samples.set(project, s);
}

async function printKeys(config: Config, store: Awaited<ReturnType<typeof openStore>>, samples: Map<string, Sample>): Promise<void> {
  const now = new Date().toISOString();
  // Each run mints fresh demo keys and retires the previous ones: a demo key is never shown twice.
  for (const old of await store.listApiKeys()) if (old.name === 'demo' && old.revokedAt === null) await store.revokeApiKey(old.id, now);
  const base = `${publicUrlOf(config)}${config.basePath}`;
  process.stdout.write('\nDemo API keys (shown once) and requests to try:\n');
  for (const [project, s] of samples) {
    const { key } = await createApiKey(store, { project, name: 'demo' });
    process.stdout.write(`\n# ${project}\nexport KEY_${project.replace(/\W/g, '_').toUpperCase()}=${key}\n`);
    const auth = `-H "Authorization: Bearer ${key}"`;
    if (s.company) process.stdout.write(`curl -s ${auth} ${base}/companies/${s.company}/details\n`);
    if (s.customer) process.stdout.write(`curl -s ${auth} "${base}/customers/${s.customer}/scenario-executions?limit=5&order=desc"\n`);
    if (s.alert) process.stdout.write(`curl -s ${auth} ${base}/alerts/${s.alert}\n`);
    process.stdout.write(`curl -s ${auth} "${base}/alerts?status=Open&sort=updatedAt&limit=5"\n`);
    if (s.companyWord) process.stdout.write(`curl -s ${auth} "${base}/companies?q=${encodeURIComponent(s.companyWord.toLowerCase())}&limit=5"\n`);
    process.stdout.write(`curl -si ${auth} "${base}/changes?limit=5&wait=30"   # its Link header is the URL to poll next; wait holds an empty answer until a change\n`);
    // The fragment never reaches the server or its logs; the console moves the key to sessionStorage and drops it from the URL.
    process.stdout.write(`Console: ${publicUrlOf(config)}/console/alerts#key=${key}\n`);
  }
  process.stdout.write(`\nAPI reference: ${publicUrlOf(config)}/docs\n`);
}
