// Options of the demo generator and their defaults. Counts are per project so that adding a
// project never reshuffles the records of the others.

/** A document file the generator referenced, so a caller can store bytes under its objectKey. */
export interface DemoDocumentRef {
  objectKey: string;
  mimetype: string;
  filename: string;
  cmsProjectId: string;
}

export interface DemoOptions {
  /** Run seed: the same seed and options give byte-identical output. */
  seed?: number;
  /** Number of projects (ids from a fixed list, then proj-demo-N), or explicit project ids. */
  projects?: number | readonly string[];
  /** Company customers per project. */
  companies?: number;
  /** Individual customers per project. */
  individuals?: number;
  /** Mean number of executions of an ordinary customer (0 disables ordinary executions). */
  executionsPerCustomer?: number;
  /** Share of customers in the long tail, each with a few hundred executions. */
  executionTailRatio?: number;
  /** Executions of the first company of the first project (the "heavy" customer); 0 disables. */
  heavyCustomerExecutions?: number;
  /** Alerts per project. */
  alerts?: number;
  /** Share of alerts that are near 1 MB (AML screening with hundreds of hits), evenly spaced. */
  largeAlertRatio?: number;
  /** Adds a few fields the contract does not list, to show they are kept and warned about. */
  extraFields?: boolean;
  /** Called once for every stored document file the output references. */
  onDocument?: (doc: DemoDocumentRef) => void;
}

export type ResolvedDemoOptions = Required<Omit<DemoOptions, 'projects' | 'onDocument'>> & {
  projects: readonly string[];
  onDocument: ((doc: DemoDocumentRef) => void) | undefined;
};

// Two realistic tenants first: one crypto exchange and one bank, so both transaction kinds and
// both onboarding styles appear even at the default size.
const NAMED_PROJECTS = [
  'proj-acme-exchange',
  'proj-northwind-bank',
  'proj-globex-payments',
  'proj-initech-custody',
  'proj-umbrella-brokerage',
  'proj-stark-remittance',
] as const;

export const DEMO_DEFAULTS = {
  seed: 20240601,
  projects: 2,
  companies: 40,
  individuals: 20,
  executionsPerCustomer: 4,
  executionTailRatio: 0.03,
  heavyCustomerExecutions: 2000,
  alerts: 60,
  largeAlertRatio: 0.01,
  extraFields: true,
} as const;

/** Project ids for a project count: the named tenants first, then proj-demo-N. */
export function projectIds(count: number): string[] {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) ids.push(NAMED_PROJECTS[i] ?? `proj-demo-${i + 1}`);
  return ids;
}

function nonNegativeInt(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 0) throw new RangeError(`demo option ${name} must be a non-negative integer, got ${value}`);
  return value;
}

function ratio(name: string, value: number): number {
  if (!(value >= 0 && value <= 1)) throw new RangeError(`demo option ${name} must be between 0 and 1, got ${value}`);
  return value;
}

/** Fills in defaults and rejects nonsensical values early, before any output is produced. */
export function resolveDemoOptions(options: DemoOptions = {}): ResolvedDemoOptions {
  const projects = options.projects ?? DEMO_DEFAULTS.projects;
  const ids = typeof projects === 'number' ? projectIds(nonNegativeInt('projects', projects)) : [...projects];
  if (new Set(ids).size !== ids.length) throw new RangeError('demo option projects must not repeat an id');
  const seed = options.seed ?? DEMO_DEFAULTS.seed;
  const companies = nonNegativeInt('companies', options.companies ?? DEMO_DEFAULTS.companies);
  const individuals = nonNegativeInt('individuals', options.individuals ?? DEMO_DEFAULTS.individuals);
  const alerts = nonNegativeInt('alerts', options.alerts ?? DEMO_DEFAULTS.alerts);
  // Alerts are always about a customer of their project.
  if (alerts > 0 && companies + individuals === 0) throw new RangeError('demo option alerts needs at least one company or individual per project');
  if (!Number.isSafeInteger(seed)) throw new RangeError(`demo option seed must be an integer, got ${seed}`);
  return {
    seed,
    projects: ids,
    companies,
    individuals,
    executionsPerCustomer: nonNegativeInt('executionsPerCustomer', options.executionsPerCustomer ?? DEMO_DEFAULTS.executionsPerCustomer),
    executionTailRatio: ratio('executionTailRatio', options.executionTailRatio ?? DEMO_DEFAULTS.executionTailRatio),
    heavyCustomerExecutions: nonNegativeInt('heavyCustomerExecutions', options.heavyCustomerExecutions ?? DEMO_DEFAULTS.heavyCustomerExecutions),
    alerts,
    largeAlertRatio: ratio('largeAlertRatio', options.largeAlertRatio ?? DEMO_DEFAULTS.largeAlertRatio),
    extraFields: options.extraFields ?? DEMO_DEFAULTS.extraFields,
    onDocument: options.onDocument,
  };
}
