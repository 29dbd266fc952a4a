/** The targets the bench reports against: printed PASS/FAIL beside each number, never fatal. */
import type { Row } from './summary.js';

export interface Verdict {
  /** e.g. "≥ 0.50", "p99 ≤ 15 ms". */
  target: string;
  pass: boolean;
  /** The ratio level to draw on the chart, when the target is a ratio. */
  ratioLine?: number;
}

// The connection count the RATIO lines and the latency targets refer to.
export const REFERENCE_CONNECTIONS = 32;

const pass = (ok: boolean): string => (ok ? 'PASS' : 'FAIL');

function ratioVerdict(row: Row, min: number): Verdict {
  return { target: `≥ ${min.toFixed(2)}`, pass: row.ratio >= min, ratioLine: min };
}

/**
 * The target of a row, if one applies to its scenario and store: reads by id and execution pages
 * as the performance issue sets them (a gzip answer as its plain one), lists and search as the
 * lists issue does.
 */
export function verdictOf(row: Row): Verdict | undefined {
  // Targets are set for the stores as deployed; the twins (-nolog, -nocache, -link, -node) are for comparison only.
  if (row.store !== 'sqlite' && row.store !== 'postgres') return undefined;
  const sqlite = row.store === 'sqlite';
  switch (row.scenario.replace(/-gzip$/, '')) {
    case 'company':
    case 'alert-small':
    case 'alert-median':
      return ratioVerdict(row, sqlite ? 0.35 : 0.3);
    case 'alert-1mb':
      return ratioVerdict(row, sqlite ? 0.5 : 0.3);
    case 'executions-first':
    case 'executions-deep': {
      if (row.connections !== REFERENCE_CONNECTIONS) return undefined;
      const min = sqlite ? 0.35 : 0.25;
      // The ceiling's p99 for the same answers is the floor: a page may wait at most as long again.
      const p99ok = row.p99 <= 2 * row.ceilingP99;
      return { target: `≥ ${min.toFixed(2)}, p99 ≤ 2 × ceiling p99 (${(2 * row.ceilingP99).toFixed(2)} ms)`, pass: row.ratio >= min && p99ok, ratioLine: min };
    }
    case 'alert-list':
    case 'alert-list-filtered':
    case 'company-list':
      return ratioVerdict(row, sqlite ? 0.5 : 0.3);
    case 'company-search': {
      if (row.connections !== REFERENCE_CONNECTIONS) return undefined;
      // The ceiling's p99 for the same answers is the floor: a search may cost at most as much again.
      return { target: `p99 ≤ 2 × ceiling p99 (${(2 * row.ceilingP99).toFixed(2)} ms)`, pass: row.p99 <= 2 * row.ceilingP99 };
    }
    default:
      return undefined;
  }
}

/** Feed catch-up target: changes per second read from the start by one consumer. */
export function catchUpVerdict(changesPerSecond: number): string {
  return `≥ 20000 changes/s ${pass(changesPerSecond >= 20_000)}`;
}

/** Import targets: records/s against this machine's floor measured in the same run, and peak RSS. */
export function importVerdict(recordsPerSecond: number, floorPerSecond: number | undefined, peakRssMb: number | undefined): string {
  const rate = floorPerSecond === undefined ? 'floor not measured' : `≥ 0.8 of the floor ${pass(recordsPerSecond >= 0.8 * floorPerSecond)}`;
  const rss = peakRssMb === undefined ? 'peak RSS unknown' : `≤ 300 MB ${pass(peakRssMb <= 300)}`;
  return `${rate}, ${rss}`;
}

/** Start-up target: 1 s, stated for the large SQLite store. */
export function startupVerdict(store: string, scale: string, ms: number): string {
  if (store !== 'sqlite') return 'no target';
  const verdict = `≤ 1000 ms ${pass(ms <= 1000)}`;
  return scale === 'large' ? verdict : `${verdict} (the target is for the large store)`;
}

/** "≥ 0.50 PASS"-style text for a verdict, or "-" when none applies. */
export function verdictText(v: Verdict | undefined): string {
  return v === undefined ? '-' : `${v.target} ${pass(v.pass)}`;
}
