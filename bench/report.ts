/** The printed report: one table, then RATIO, IMPORT and STARTUP lines for scripts to grep. */
import type { ImportFloor } from './import-floor.js';
import type { Calibration } from './measure.js';
import { median, type Row } from './summary.js';
import { REFERENCE_CONNECTIONS, catchUpVerdict, importVerdict, startupVerdict, verdictOf, verdictText } from './targets.js';

export interface StoreFacts {
  store: string;
  recordsPerSecond: number;
  peakRssMb: number | undefined;
  /** What no import of this data set can skip, measured in the same run. */
  floor?: ImportFloor;
  startupMs: number;
  /** The change feed read from the start by one consumer per project. */
  feed?: { changes: number; seconds: number };
}

const num = (x: number, digits = 0): string => (Number.isFinite(x) ? x.toLocaleString('en', { minimumFractionDigits: digits, maximumFractionDigits: digits }) : '-');
const pct = (x: number): string => `${Math.round(x * 100)}%`;

function bytes(x: number): string {
  if (x >= 1 << 20) return `${(x / (1 << 20)).toFixed(2)} MB`;
  if (x >= 1024) return `${(x / 1024).toFixed(1)} KB`;
  return `${Math.round(x)} B`;
}

function table(header: string[], lines: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  // Text columns left-aligned, numbers right-aligned.
  const left = new Set([0, 1, 8]);
  const fmt = (cells: string[]): string => cells.map((c, i) => (left.has(i) ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ').trimEnd();
  return [fmt(header), widths.map((w) => '-'.repeat(w)).join('  '), ...lines.map(fmt)].join('\n');
}

/** The results table: medians over repetitions, ratio to the ceiling, target verdicts, noise. */
export function formatTable(rows: Row[]): string {
  const header = ['scenario', 'store', 'conns', 'req/s', 'p50 ms', 'p99 ms', 'ceiling req/s', 'ceiling p99', 'ratio', 'target', 'bytes/resp', 'CPU µs svc/ceil', 'noise svc/ceil'];
  const lines = rows.map((r) => [
    r.scenario,
    r.store,
    String(r.connections),
    num(r.rps),
    num(r.p50, 2),
    num(r.p99, 2),
    num(r.ceilingRps),
    num(r.ceilingP99, 2),
    r.ratio.toFixed(2),
    r.invalid ? 'INVALID' : verdictText(verdictOf(r)),
    bytes(r.bytesPerResponse),
    `${num(r.cpuPerResponse)}/${num(r.ceilingCpuPerResponse)}`,
    `${pct(r.spread)}/${pct(r.ceilingSpread)}${r.invalid ? ` (${r.unexpected}/${r.ceilingUnexpected} unexpected)` : ''}`,
  ]);
  return table(header, lines);
}

/** Name suffix of a store served with ACCESS_LOG=off (npm run bench -- --access-log-ab). */
export const NO_ACCESS_LOG = '-nolog';

/** Name suffix of a store served with the list page cache and kept answers off (npm run bench -- --cache-ab). */
export const NO_CACHE = '-nocache';

/** Name suffix of a store served with more node flags (npm run bench -- --node-ab='...'). */
export const NODE_AB = '-node';

/** Name suffix of PostgreSQL served from a network namespace across a delayed link (npm run bench -- --pg-link MS). */
export const PG_LINK = '-link';

/** Scenarios the link target applies to: reads by id and execution pages. */
const LINK_TARGETED = /^(company(-gzip)?|alert-(small|median|1mb)(-gzip)?|executions-(first|deep))$/;

/**
 * LINK lines: each scenario's req/s across the link over the same store's local req/s, and the
 * p99s; by-id and execution scenarios at the reference count target ≥ 0.8 and p99 ≤ local + 3 ms.
 */
export function formatLinkLines(rows: Row[], linkMs: number, rttMs: number | undefined): string {
  const out = [`LINK round trip ${linkMs} ms asked (bench/delay-forwarder.c), a SELECT 1 across it ${rttMs?.toFixed(2) ?? '?'} ms slower than on loopback (medians)`];
  for (const r of rows.filter((x) => x.store.endsWith(PG_LINK))) {
    const local = rows.find((x) => x.store === r.store.slice(0, -PG_LINK.length) && x.scenario === r.scenario && x.connections === r.connections);
    if (local === undefined) continue;
    const share = r.rps / local.rps;
    const paired = r.repsRps.map((rps, i) => rps / local.repsRps[i]!).sort((a, b) => a - b);
    const targeted = r.connections === REFERENCE_CONNECTIONS && LINK_TARGETED.test(r.scenario);
    const pass = share >= 0.8 && r.p99 <= local.p99 + 3;
    const verdict = targeted ? `target ≥ 0.80 and p99 ≤ local + 3 ms ${r.invalid || local.invalid ? 'INVALID' : pass ? 'PASS' : 'FAIL'}` : 'no target';
    out.push(
      `LINK ${r.scenario} c${r.connections} ${share.toFixed(2)}  (req/s ${Math.round(r.rps)} across vs ${Math.round(local.rps)} local, per repetition ${paired.map((x) => x.toFixed(2)).join('/')}; ` +
        `p99 ${r.p99.toFixed(2)} vs ${local.p99.toFixed(2)} ms; CPU per answer ${Math.round(r.cpuPerResponse)} vs ${Math.round(local.cpuPerResponse)} µs, forwarder ${Math.round(r.emulatorCpuPerResponse)} µs more; ${verdict})`,
    );
  }
  return out.join('\n');
}

/** RATIO lines at the reference connection count, ACCESS_LOG lines, then IMPORT and STARTUP lines. */
export function formatLines(rows: Row[], facts: StoreFacts[], scale: string): string {
  const out: string[] = [];
  for (const r of rows.filter((x) => x.connections === REFERENCE_CONNECTIONS)) {
    const v = verdictOf(r);
    const extra = r.scenario.startsWith('executions') || r.scenario === 'company-search' ? `p99 ${r.p99.toFixed(2)} ms, ceiling p99 ${r.ceilingP99.toFixed(2)} ms, ` : '';
    // A wrong status or a failed request on either side voids the row's ratio, whatever its verdict.
    const invalid = r.invalid ? `INVALID: ${r.unexpected} service and ${r.ceilingUnexpected} ceiling answers unexpected or failed, or a window without answers; ` : '';
    out.push(`RATIO ${r.scenario} ${r.store} ${r.ratio.toFixed(2)}  (${invalid}${extra}target ${verdictText(v)})`);
  }
  for (const r of rows.filter((x) => x.store.endsWith(NO_ACCESS_LOG))) {
    const logged = rows.find((x) => x.store === r.store.slice(0, -NO_ACCESS_LOG.length) && x.scenario === r.scenario && x.connections === r.connections);
    if (logged === undefined) continue;
    const cost = 1 - logged.rps / r.rps;
    // Each repetition runs the two back to back, so the per-repetition costs show the noise.
    const paired = logged.repsRps.map((rps, i) => 1 - rps / r.repsRps[i]!).sort((a, b) => a - b);
    const pct1 = (x: number): string => `${(x * 100).toFixed(1)}%`;
    // CPU per answer of the service (and of PostgreSQL), the same pairing: it shows where the cost lands.
    const cpuCost = logged.cpuPerResponse / r.cpuPerResponse - 1;
    const cpu = Number.isFinite(cpuCost)
      ? `; CPU per answer ${Math.round(logged.cpuPerResponse)} µs logged vs ${Math.round(r.cpuPerResponse)} µs not, ${pct1(cpuCost)} (per repetition median ${pct1(median(logged.repsCpu.map((c, i) => c / r.repsCpu[i]! - 1)))})`
      : '';
    out.push(
      `ACCESS_LOG ${r.scenario} ${logged.store} c${r.connections} ${pct1(cost)}  (req/s ${Math.round(logged.rps)} logged vs ${Math.round(r.rps)} not; ` +
        `per repetition median ${pct1(median(paired))}, ${pct1(paired[0]!)} to ${pct1(paired.at(-1)!)}${cpu}; target ≤ 10% ${cost <= 0.1 ? 'PASS' : 'FAIL'})`,
    );
  }
  for (const f of facts) {
    const floor = f.floor === undefined ? '' : `floor ${Math.round(f.floor.recordsPerSecond)} records/s, ${(f.recordsPerSecond / f.floor.recordsPerSecond).toFixed(2)} of it; `;
    out.push(`IMPORT ${f.store} ${Math.round(f.recordsPerSecond)} ${f.peakRssMb === undefined ? '-' : Math.round(f.peakRssMb)}  (${floor}${importVerdict(f.recordsPerSecond, f.floor?.recordsPerSecond, f.peakRssMb)})`);
  }
  for (const f of facts) {
    if (f.feed !== undefined) out.push(`CATCHUP ${f.store} ${Math.round(f.feed.changes / f.feed.seconds)}  (${f.feed.changes} changes in ${f.feed.seconds.toFixed(2)} s from the start; ${catchUpVerdict(f.feed.changes / f.feed.seconds)})`);
  }
  for (const f of facts) out.push(`STARTUP ${f.store} ${Math.round(f.startupMs)}  (${startupVerdict(f.store, scale, f.startupMs)})`);
  return out.join('\n');
}

/** The calibration's minimum: the generator against a constant answer over the fastest ceiling. */
export const CALIBRATION_MIN = 1.5;

export interface CalibrationVerdict {
  connections: number;
  generatorRps: number;
  fastestCeilingRps: number;
  fastestScenario: string;
  /** generatorRps ÷ fastestCeilingRps. */
  headroom: number;
  /** The generator's CPU per answer (µs) in the calibration, and the req/s one whole core of it would send. */
  generatorCpuPerResponse: number;
  generatorRpsPerCore: number;
  pass: boolean;
}

/** Per connection count: did the generator reach CALIBRATION_MIN × the fastest ceiling of the run? */
export function calibrationVerdicts(calibration: Calibration[], rows: Row[]): CalibrationVerdict[] {
  return calibration.map((c) => {
    const fastest = rows.filter((r) => r.connections === c.connections && Number.isFinite(r.ceilingRps)).sort((a, b) => b.ceilingRps - a.ceilingRps)[0];
    const fastestCeilingRps = fastest?.ceilingRps ?? NaN;
    const headroom = c.rps / fastestCeilingRps;
    return {
      connections: c.connections,
      generatorRps: c.rps,
      fastestCeilingRps,
      fastestScenario: fastest?.scenario ?? '-',
      headroom,
      generatorCpuPerResponse: c.clientCpuPerResponse,
      generatorRpsPerCore: 1e6 / c.clientCpuPerResponse,
      pass: !(headroom < CALIBRATION_MIN),
    };
  });
}

/** CALIBRATION lines: PASS, or FAIL saying the run's ratios are invalid. */
export function formatCalibration(verdicts: CalibrationVerdict[]): string {
  return verdicts
    .map((v) => {
      const figures =
        `generator ${num(v.generatorRps)} req/s against a constant answer, fastest ceiling ${num(v.fastestCeilingRps)} req/s (${v.fastestScenario}), ` +
        `${v.headroom.toFixed(2)} × (≥ ${CALIBRATION_MIN}); generator CPU ${num(v.generatorCpuPerResponse, 1)} µs per answer (${num(v.generatorRpsPerCore)} req/s per core)`;
      return v.pass
        ? `CALIBRATION PASS c${v.connections} ${figures}`
        : `CALIBRATION FAIL c${v.connections} ${figures}: the load generator may have capped the ceiling, so this run's ratios at ${v.connections} connections are invalid`;
    })
    .join('\n');
}
