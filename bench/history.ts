/**
 * The history of bench runs: one line per run in bench/results/history.ndjson (committed, unlike
 * each run's full JSON), and a chart per scale of every scenario's ratio across the runs.
 */
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { esc } from './chart.js';
import type { ImportFloor } from './import-floor.js';
import type { ImportResult } from './import-store.js';
import type { Row } from './summary.js';
import { REFERENCE_CONNECTIONS, verdictOf } from './targets.js';

export interface HistoryRatio {
  ratio: number;
  /** The target's ratio, when the scenario's target is one. */
  target?: number;
  p99: number;
  ceilingP99: number;
  /** CPU µs per answer: the service's (PostgreSQL's processes included) and the ceiling's. */
  cpu: number;
  ceilingCpu: number;
  invalid?: true;
}

export interface HistoryEntry {
  startedAt: string;
  scale: string;
  build: string;
  reps: number;
  duration: number;
  calibration: { valid: boolean; factor: number };
  /** Per scenario and store, at the reference connection count. */
  ratios: Record<string, Record<string, HistoryRatio>>;
  imports: Record<string, { recordsPerSecond: number; peakRssMb?: number; floorPerSecond?: number }>;
  catchUps: Record<string, number>;
}

const round = (x: number, digits: number): number => (Number.isFinite(x) ? Number(x.toFixed(digits)) : x);

/** The entry of one run: the reference-connection rows and each store's import and catch-up. */
export function historyEntry(
  run: { startedAt: string; scale: string; build: string; reps: number; duration: number; calibrationValid: boolean; calibrationFactor: number },
  rows: Row[],
  imports: Map<string, ImportResult>,
  floors: Map<string, ImportFloor>,
  catchUps: Map<string, { changes: number; seconds: number }>,
): HistoryEntry {
  const ratios: HistoryEntry['ratios'] = {};
  for (const r of rows.filter((x) => x.connections === REFERENCE_CONNECTIONS)) {
    const target = verdictOf(r)?.ratioLine;
    (ratios[r.scenario] ??= {})[r.store] = {
      ratio: round(r.ratio, 3),
      ...(target === undefined ? {} : { target }),
      p99: round(r.p99, 2),
      ceilingP99: round(r.ceilingP99, 2),
      cpu: Math.round(r.cpuPerResponse),
      ceilingCpu: Math.round(r.ceilingCpuPerResponse),
      ...(r.invalid ? { invalid: true as const } : {}),
    };
  }
  const importsOut: HistoryEntry['imports'] = {};
  for (const [store, imp] of imports) {
    const floor = floors.get(store)?.recordsPerSecond;
    importsOut[store] = {
      recordsPerSecond: Math.round(imp.recordsPerSecond),
      ...(imp.peakRssMb === undefined ? {} : { peakRssMb: Math.round(imp.peakRssMb) }),
      ...(floor === undefined ? {} : { floorPerSecond: Math.round(floor) }),
    };
  }
  const catchUpsOut: Record<string, number> = {};
  for (const [store, c] of catchUps) catchUpsOut[store] = Math.round(c.changes / c.seconds);
  return {
    startedAt: run.startedAt,
    scale: run.scale,
    build: run.build,
    reps: run.reps,
    duration: run.duration,
    calibration: { valid: run.calibrationValid, factor: round(run.calibrationFactor, 2) },
    ratios,
    imports: importsOut,
    catchUps: catchUpsOut,
  };
}

export function appendHistory(file: string, entry: HistoryEntry): void {
  appendFileSync(file, `${JSON.stringify(entry)}\n`);
}

export function readHistory(file: string): HistoryEntry[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as HistoryEntry);
}

const COLORS: Record<string, string> = { sqlite: '#3b6ea8', postgres: '#d08a2e' };
const OTHER_COLORS = ['#5a9e5a', '#9a5aa8', '#777'];

/**
 * Small multiples: one panel per scenario, the runs of one scale left to right, a line per store,
 * its target dashed in the same colour. Runs with an invalid calibration are drawn hollow.
 */
export function historyChart(entries: HistoryEntry[], scale: string): string {
  const runs = entries.filter((e) => e.scale === scale);
  const scenarios = [...new Set(runs.flatMap((e) => Object.keys(e.ratios)))];
  const stores = [...new Set(runs.flatMap((e) => Object.values(e.ratios).flatMap((s) => Object.keys(s))))];
  const color = (store: string): string => COLORS[store] ?? OTHER_COLORS[stores.indexOf(store) % OTHER_COLORS.length]!;
  const cols = 4;
  const pw = 230;
  const ph = 130;
  // Room on the right of each panel for the last value's label, before the next panel's axis.
  const gap = 56;
  const top = 64;
  const rowsOfPanels = Math.max(1, Math.ceil(scenarios.length / cols));
  const width = cols * (pw + gap) + 40;
  const height = top + rowsOfPanels * (ph + gap + 14) + 20;
  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="10">`);
  out.push('<rect width="100%" height="100%" fill="white"/>');
  out.push(`<text x="20" y="20" font-size="14" font-weight="bold">${esc(`compliance-read bench history, ${scale} scale: ratio to the ceiling per run`)}</text>`);
  const first = runs[0]?.startedAt.slice(0, 10) ?? '-';
  const last = runs.at(-1)?.startedAt.slice(0, 10) ?? '-';
  out.push(`<text x="20" y="36" fill="#555">${esc(`${runs.length} run${runs.length === 1 ? '' : 's'}, ${first} to ${last}, ${REFERENCE_CONNECTIONS} connections; dashes: each store's target in its colour; hollow points: calibration failed`)}</text>`);
  stores.forEach((store, j) => {
    out.push(`<rect x="${20 + j * 110}" y="44" width="12" height="12" fill="${color(store)}"/><text x="${36 + j * 110}" y="54">${esc(store)}</text>`);
  });
  scenarios.forEach((scenario, i) => {
    const px = 30 + (i % cols) * (pw + gap);
    const py = top + Math.floor(i / cols) * (ph + gap + 14) + 14;
    const values = runs.flatMap((e) => Object.values(e.ratios[scenario] ?? {}).flatMap((v) => [v.ratio, v.target ?? 0]));
    const max = Math.max(0.6, ...values.filter(Number.isFinite)) * 1.1;
    const x = (k: number): number => px + (runs.length <= 1 ? pw / 2 : (k / (runs.length - 1)) * pw);
    const y = (v: number): number => py + ph - (v / max) * ph;
    out.push(`<text x="${px}" y="${py - 4}" font-weight="bold">${esc(scenario)}</text>`);
    out.push(`<rect x="${px}" y="${py}" width="${pw}" height="${ph}" fill="none" stroke="#ccc"/>`);
    for (let v = 0; v <= max; v += max > 1.2 ? 0.5 : 0.2) {
      out.push(`<line x1="${px}" x2="${px + pw}" y1="${y(v)}" y2="${y(v)}" stroke="#eee"/><text x="${px - 3}" y="${y(v) + 3}" text-anchor="end" fill="#777">${v.toFixed(1)}</text>`);
    }
    for (const store of stores) {
      const points = runs
        .map((e, k) => ({ k, e, v: e.ratios[scenario]?.[store] }))
        .filter((p): p is { k: number; e: HistoryEntry; v: HistoryRatio } => p.v !== undefined && Number.isFinite(p.v.ratio));
      if (points.length === 0) continue;
      const target = points.at(-1)!.v.target;
      if (target !== undefined) out.push(`<line x1="${px}" x2="${px + pw}" y1="${y(target)}" y2="${y(target)}" stroke="${color(store)}" stroke-dasharray="5 3" opacity="0.8"/>`);
      if (points.length > 1) out.push(`<polyline fill="none" stroke="${color(store)}" stroke-width="1.5" points="${points.map((p) => `${x(p.k).toFixed(1)},${y(p.v.ratio).toFixed(1)}`).join(' ')}"/>`);
      for (const p of points) {
        const fill = p.e.calibration.valid && p.v.invalid !== true ? color(store) : 'white';
        out.push(`<circle cx="${x(p.k).toFixed(1)}" cy="${y(p.v.ratio).toFixed(1)}" r="2.5" fill="${fill}" stroke="${color(store)}"><title>${esc(`${p.e.startedAt} ${store}: ${p.v.ratio.toFixed(2)}`)}</title></circle>`);
      }
      const lastPoint = points.at(-1)!;
      out.push(`<text x="${px + pw + 3}" y="${y(lastPoint.v.ratio) + 3}" fill="${color(store)}">${lastPoint.v.ratio.toFixed(2)}</text>`);
    }
  });
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}
