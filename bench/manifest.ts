/** What a generated data set holds: counts, size spreads and sampled ids, gathered in one pass. */

/** A record the bench may request, with its project (keys are per project) and NDJSON size. */
export interface SampledId {
  id: string;
  project: string;
  bytes: number;
}

export interface SizeStats {
  count: number;
  min: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  total: number;
}

export interface Manifest {
  records: number;
  bytes: number;
  projects: string[];
  counts: { companies: number; individuals: number; executions: number; alerts: number };
  sizes: { company: SizeStats; execution: SizeStats; alert: SizeStats };
  /** Alerts of at least 512 KB: the "near 1 MB" ones. */
  nearOneMbAlerts: number;
  heavyCustomer: { id: string; project: string; executions: number };
  samples: { company: SampledId[]; alertSmall: SampledId[]; alertMedian: SampledId[]; alertLarge: SampledId[] };
}

const SAMPLE = { company: 200, alert: 100, alertLarge: 20 };
const NEAR_ONE_MB = 512 * 1024;

function field(line: string, name: string, from = 0): string | undefined {
  const key = `"${name}":"`;
  const at = line.indexOf(key, from);
  if (at < 0) return undefined;
  const start = at + key.length;
  // A slice would be a V8 sliced string pinning the whole line (up to 1 MB for an alert): keeping
  // 200,000 alert ids that way ran the large generation out of heap. Copy the few bytes instead.
  return Buffer.from(line.slice(start, line.indexOf('"', start))).toString();
}

function stats(sizes: number[]): SizeStats {
  const s = Float64Array.from(sizes).sort();
  const q = (p: number): number => (s.length === 0 ? 0 : s[Math.min(s.length - 1, Math.floor(p * s.length))]!);
  return { count: s.length, min: q(0), p50: q(0.5), p90: q(0.9), p99: q(0.99), max: s.length === 0 ? 0 : s[s.length - 1]!, total: sizes.reduce((a, b) => a + b, 0) };
}

/** A small seeded PRNG (mulberry32): the same data set always yields the same samples. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pickSome<T>(items: T[], n: number, rand: () => number): T[] {
  const copy = items.slice();
  for (let i = copy.length - 1; i > 0; i -= 1) {
    const j = Math.floor(rand() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy.slice(0, n);
}

/** Scans NDJSON lines as they are generated; only ids and sizes are kept, never records. */
export class DatasetScanner {
  private records = 0;
  private bytes = 0;
  private projects = new Set<string>();
  private companySizes: number[] = [];
  private executionSizes: number[] = [];
  private individuals = 0;
  private companyReservoir: SampledId[] = [];
  private alerts: SampledId[] = [];
  private run = { customer: '', project: '', length: 0 };
  private heavy = { id: '', project: '', executions: 0 };
  private rand = seeded(7);

  /** Notes one NDJSON line (with or without its newline). */
  add(line: string): void {
    const size = Buffer.byteLength(line);
    this.records += 1;
    this.bytes += size;
    // Prefix checks rather than JSON.parse: at a million records parsing would dominate.
    if (line.startsWith('{"kind":"execution"')) {
      this.executionSizes.push(size);
      const customer = field(line, 'customerId') ?? '';
      if (customer !== this.run.customer) this.run = { customer, project: field(line, 'cmsProjectId') ?? '', length: 0 };
      this.run.length += 1;
      if (this.run.length > this.heavy.executions) this.heavy = { id: customer, project: this.run.project, executions: this.run.length };
    } else if (line.startsWith('{"kind":"customer"')) {
      // id and cmsProjectId lead the record, and the top-level type comes before any nested object.
      const head = line.slice(0, 600);
      const id = field(head, 'id') ?? '';
      const project = field(head, 'cmsProjectId') ?? '';
      this.projects.add(project);
      if (field(head, 'type') !== 'Company') {
        this.individuals += 1;
        return;
      }
      this.companySizes.push(size);
      const seen = this.companySizes.length;
      if (this.companyReservoir.length < SAMPLE.company) this.companyReservoir.push({ id, project, bytes: size });
      else {
        const j = Math.floor(this.rand() * seen);
        if (j < SAMPLE.company) this.companyReservoir[j] = { id, project, bytes: size };
      }
    } else if (line.startsWith('{"kind":"alert"')) {
      this.alerts.push({ id: field(line, 'id') ?? '', project: field(line, 'cmsProjectId') ?? '', bytes: size });
    }
  }

  /** Running totals, for progress reports. */
  progress(): { records: number; bytes: number } {
    return { records: this.records, bytes: this.bytes };
  }

  /** The manifest, with alert samples bucketed by size. */
  finish(): Manifest {
    const alertStats = stats(this.alerts.map((a) => a.bytes));
    const bySize = this.alerts.slice().sort((a, b) => a.bytes - b.bytes);
    const n = bySize.length;
    // Small: the smallest fifth; median: the middle tenth; large: the near-1 MB ones (or the
    // top 1 % if none reaches 512 KB), so each bucket is a spread of ids, not one hot record.
    const small = bySize.slice(0, Math.max(1, Math.floor(n * 0.2)));
    const median = bySize.slice(Math.floor(n * 0.45), Math.max(Math.floor(n * 0.45) + 1, Math.ceil(n * 0.55)));
    const nearOneMb = bySize.filter((a) => a.bytes >= NEAR_ONE_MB);
    const large = nearOneMb.length > 0 ? nearOneMb : bySize.slice(Math.floor(n * 0.99));
    return {
      records: this.records,
      bytes: this.bytes,
      projects: [...this.projects],
      counts: { companies: this.companySizes.length, individuals: this.individuals, executions: this.executionSizes.length, alerts: n },
      sizes: { company: stats(this.companySizes), execution: stats(this.executionSizes), alert: alertStats },
      nearOneMbAlerts: nearOneMb.length,
      heavyCustomer: this.heavy,
      samples: {
        company: this.companyReservoir,
        alertSmall: pickSome(small, SAMPLE.alert, this.rand),
        alertMedian: pickSome(median, SAMPLE.alert, this.rand),
        alertLarge: pickSome(large, SAMPLE.alertLarge, this.rand),
      },
    };
  }
}
