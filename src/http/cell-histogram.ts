/**
 * A histogram whose label sets are cells its callers keep: an observation is a bucket search in
 * the cell the caller already holds. prom-client's own histogram builds and hashes a label object
 * on every observation, which the serving thread paid twice on every answer (docs/architecture.md).
 * prom-client's registry formats it like any of its metrics.
 */
import type { Metric } from 'prom-client';

/** One line of the exposition, as prom-client's registry reads it. */
interface Value {
  metricName: string;
  labels: Record<string, string | number>;
  value: number;
}

/** The observations of one label set. */
export class HistogramCell<L extends string> {
  /** Observations per bucket, not cumulative: the last slot counts those above every bound. */
  readonly counts: Float64Array;
  sum = 0;
  count = 0;

  constructor(
    readonly labels: Readonly<Record<L, string>>,
    private readonly bounds: readonly number[],
  ) {
    this.counts = new Float64Array(bounds.length + 1);
  }

  observe(seconds: number): void {
    let i = 0;
    while (i < this.bounds.length && seconds > this.bounds[i]!) i++;
    this.counts[i]! += 1;
    this.sum += seconds;
    this.count += 1;
  }
}

export class CellHistogram<L extends string> {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly cells: HistogramCell<L>[] = [];

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly bounds: readonly number[],
  ) {}

  /** A new cell for one label set: the caller finds it again itself, and asks once per label set. */
  cell(labels: Record<L, string>): HistogramCell<L> {
    const cell = new HistogramCell<L>(Object.freeze({ ...labels }), this.bounds);
    this.cells.push(cell);
    return cell;
  }

  /** Observations per label set. */
  counts(): { labels: Readonly<Record<L, string>>; count: number }[] {
    return this.cells.map((c) => ({ labels: c.labels, count: c.count }));
  }

  /** The histogram as prom-client's registry formats it: cumulative buckets, then sum and count. */
  async get(): Promise<{ name: string; help: string; type: string; values: Value[]; aggregator: string }> {
    const values: Value[] = [];
    for (const c of this.cells) {
      let cumulative = 0;
      this.bounds.forEach((le, i) => {
        cumulative += c.counts[i]!;
        values.push({ metricName: `${this.name}_bucket`, labels: { ...c.labels, le }, value: cumulative });
      });
      values.push({ metricName: `${this.name}_bucket`, labels: { ...c.labels, le: '+Inf' }, value: c.count });
      values.push({ metricName: `${this.name}_sum`, labels: c.labels, value: c.sum });
      values.push({ metricName: `${this.name}_count`, labels: c.labels, value: c.count });
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  /** As a registry's metric: the registry reads name, help, type, aggregator and get(). */
  asMetric(): Metric {
    return this as unknown as Metric;
  }
}
