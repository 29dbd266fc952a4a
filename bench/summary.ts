/** Reduces the raw samples to one row per (scenario, store, connections): medians and the ratio. */
import type { Sample } from './measure.js';
import type { ScenarioName } from './scenarios.js';

export interface Row {
  scenario: ScenarioName;
  store: string;
  connections: number;
  /** Median over repetitions. */
  rps: number;
  ceilingRps: number;
  /** Service req/s ÷ ceiling req/s, both medians of the same run's repetitions. */
  ratio: number;
  /** Median of the per-repetition ratios (each service run ÷ the ceiling run just before it). */
  pairedRatio: number;
  p50: number;
  p99: number;
  /** Median CPU per answer of the service's processes, PostgreSQL's included (µs). */
  cpuPerResponse: number;
  /** CPU per answer of the processes emulating the setting (the link's forwarder); NaN when none. */
  emulatorCpuPerResponse: number;
  /** Median CPU per answer of the ceiling server (µs). */
  ceilingCpuPerResponse: number;
  /** Median CPU per answer of the load generator while it drove the service (µs). */
  clientCpuPerResponse: number;
  /** The same while it drove the ceiling (µs). */
  ceilingClientCpuPerResponse: number;
  /** Per repetition, in order. */
  repsCpu: number[];
  /** The ceiling's own p99 for the same requests: the floor of any latency target. */
  ceilingP99: number;
  bytesPerResponse: number;
  /** (max − min) ÷ median over repetitions: the noise between repetitions. */
  spread: number;
  ceilingSpread: number;
  /** Answers of the service with another status than expected, socket errors and timeouts. */
  unexpected: number;
  ceilingUnexpected: number;
  /** Any unexpected answer, or a window without answers, on either side: the ratio says nothing. */
  invalid: boolean;
  repsRps: number[];
  ceilingRepsRps: number[];
}

/** Percentile `p` (0..100) of sorted values: the smallest value at or above that share of them. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** The median (mean of the middle two for an even count). */
export function median(xs: number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

function spread(xs: number[]): number {
  const m = median(xs);
  return xs.length < 2 || !(m > 0) ? 0 : (Math.max(...xs) - Math.min(...xs)) / m;
}

/** One row per scenario, store and connection count, in measurement order. */
export function summarise(samples: Sample[], ceilingName: string): Row[] {
  const groups = new Map<string, Sample[]>();
  for (const s of samples) {
    const k = `${s.scenario}|${s.connections}|${s.target}`;
    groups.set(k, [...(groups.get(k) ?? []), s]);
  }
  const rows: Row[] = [];
  for (const [k, group] of groups) {
    const [scenario, connections, target] = k.split('|') as [ScenarioName, string, string];
    if (target === ceilingName) continue;
    const ceiling = groups.get(`${scenario}|${connections}|${ceilingName}`) ?? [];
    const rps = group.map((s) => s.rps);
    const ceilingRps = ceiling.map((s) => s.rps);
    rows.push({
      scenario,
      store: target,
      connections: Number(connections),
      rps: median(rps),
      ceilingRps: median(ceilingRps),
      ratio: median(rps) / median(ceilingRps),
      pairedRatio: median(group.map((s) => s.rps / (ceiling.find((c) => c.rep === s.rep)?.rps ?? NaN))),
      p50: median(group.map((s) => s.p50)),
      p99: median(group.map((s) => s.p99)),
      ceilingP99: median(ceiling.map((s) => s.p99)),
      cpuPerResponse: median(group.map((s) => s.cpuPerResponse)),
      ceilingCpuPerResponse: median(ceiling.map((s) => s.cpuPerResponse)),
      clientCpuPerResponse: median(group.map((s) => s.clientCpuPerResponse)),
      ceilingClientCpuPerResponse: median(ceiling.map((s) => s.clientCpuPerResponse)),
      repsCpu: group.map((s) => s.cpuPerResponse),
      emulatorCpuPerResponse: median(group.map((s) => s.emulatorCpuPerResponse)),
      bytesPerResponse: median(group.map((s) => s.bytesPerResponse)),
      spread: spread(rps),
      ceilingSpread: spread(ceilingRps),
      unexpected: group.reduce((a, s) => a + s.unexpected, 0),
      ceilingUnexpected: ceiling.reduce((a, s) => a + s.unexpected, 0),
      invalid: [...group, ...ceiling].some((s) => s.unexpected > 0 || s.responses === 0),
      repsRps: rps,
      ceilingRepsRps: ceilingRps,
    });
  }
  return rows;
}
