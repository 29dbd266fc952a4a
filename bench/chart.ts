/** A hand-built SVG bar chart: ratio to the ceiling per scenario and store, a tick at each target. */
import type { Row } from './summary.js';
import { REFERENCE_CONNECTIONS, verdictOf } from './targets.js';

const COLORS = ['#3b6ea8', '#d08a2e', '#5a9e5a', '#9a5aa8'];

export const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The chart of the reference-connection rows, as an SVG document. */
export function ratioChart(allRows: Row[], title: string): string {
  const rows = allRows.filter((r) => r.connections === REFERENCE_CONNECTIONS);
  const scenarios = [...new Set(rows.map((r) => r.scenario))];
  const stores = [...new Set(rows.map((r) => r.store))];
  const bar = 22;
  const group = stores.length * bar + 18;
  const left = 56;
  const top = 48;
  const height = 300;
  const width = left + scenarios.length * group + 150;
  const max = Math.max(1.2, ...rows.map((r) => (Number.isFinite(r.ratio) ? r.ratio : 0))) * 1.05;
  const y = (v: number): number => top + height - (v / max) * height;
  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${top + height + 120}" font-family="sans-serif" font-size="11">`);
  out.push(`<rect width="100%" height="100%" fill="white"/>`);
  out.push(`<text x="${left}" y="20" font-size="14" font-weight="bold">${esc(title)}</text>`);
  out.push(`<text x="${left}" y="36" fill="#555">service req/s ÷ ceiling req/s (median of repetitions), ${REFERENCE_CONNECTIONS} connections; red ticks: targets</text>`);
  for (let v = 0; v <= max; v += 0.2) {
    out.push(`<line x1="${left}" x2="${left + scenarios.length * group}" y1="${y(v)}" y2="${y(v)}" stroke="#e4e4e4"/>`);
    out.push(`<text x="${left - 6}" y="${y(v) + 4}" text-anchor="end" fill="#555">${v.toFixed(1)}</text>`);
  }
  scenarios.forEach((scenario, i) => {
    const x0 = left + i * group + 9;
    stores.forEach((store, j) => {
      const r = rows.find((row) => row.scenario === scenario && row.store === store);
      if (r === undefined || !Number.isFinite(r.ratio)) return;
      const x = x0 + j * bar;
      const v = verdictOf(r);
      out.push(`<rect x="${x}" y="${y(r.ratio)}" width="${bar - 4}" height="${y(0) - y(r.ratio)}" fill="${COLORS[j % COLORS.length]}"><title>${esc(`${scenario} ${store}: ${r.ratio.toFixed(2)}`)}</title></rect>`);
      out.push(`<text x="${x + (bar - 4) / 2}" y="${y(r.ratio) - 3}" text-anchor="middle" font-size="9">${r.ratio.toFixed(2)}</text>`);
      if (v?.ratioLine !== undefined) out.push(`<line x1="${x - 2}" x2="${x + bar - 2}" y1="${y(v.ratioLine)}" y2="${y(v.ratioLine)}" stroke="#d22" stroke-width="2"/>`);
    });
    const cx = x0 + (stores.length * bar) / 2;
    out.push(`<text transform="translate(${cx},${y(0) + 10}) rotate(40)" fill="#333">${esc(scenario)}</text>`);
  });
  out.push(`<line x1="${left}" x2="${left}" y1="${top}" y2="${y(0)}" stroke="#333"/>`);
  out.push(`<line x1="${left}" x2="${left + scenarios.length * group}" y1="${y(0)}" y2="${y(0)}" stroke="#333"/>`);
  stores.forEach((store, j) => {
    const lx = left + scenarios.length * group + 20;
    out.push(`<rect x="${lx}" y="${top + j * 18}" width="12" height="12" fill="${COLORS[j % COLORS.length]}"/><text x="${lx + 18}" y="${top + j * 18 + 10}">${esc(store)}</text>`);
  });
  const ly = top + stores.length * 18;
  out.push(`<line x1="${left + scenarios.length * group + 20}" x2="${left + scenarios.length * group + 32}" y1="${ly + 6}" y2="${ly + 6}" stroke="#d22" stroke-width="2"/><text x="${left + scenarios.length * group + 38}" y="${ly + 10}">target</text>`);
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}
