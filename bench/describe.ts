/** A few lines saying what the generator actually produced, printed before any measurement. */
import type { Manifest, SizeStats } from './manifest.js';

const kb = (x: number): string => (x >= 1 << 20 ? `${(x / (1 << 20)).toFixed(2)} MB` : `${(x / 1024).toFixed(1)} KB`);

function sizes(s: SizeStats): string {
  return `median ${kb(s.p50)}, p90 ${kb(s.p90)}, p99 ${kb(s.p99)}, max ${kb(s.max)}`;
}

/** The data set's counts and size spreads (sizes are NDJSON line sizes, envelope included). */
export function describeDataset(m: Manifest): string {
  const c = m.counts;
  const bucket = (ids: { bytes: number }[]): string => (ids.length === 0 ? 'none' : `${ids.length} ids, ${kb(Math.min(...ids.map((i) => i.bytes)))}–${kb(Math.max(...ids.map((i) => i.bytes)))}`);
  return [
    `  ${m.records.toLocaleString('en')} records, ${(m.bytes / 1e6).toFixed(1)} MB of NDJSON, projects ${m.projects.join(', ')}`,
    `  companies ${c.companies.toLocaleString('en')} (${sizes(m.sizes.company)}), individuals ${c.individuals.toLocaleString('en')}`,
    `  alerts ${c.alerts.toLocaleString('en')} (${sizes(m.sizes.alert)}; ${m.nearOneMbAlerts} ≥ 512 KB)`,
    `  executions ${c.executions.toLocaleString('en')} (${sizes(m.sizes.execution)}); heavy customer ${m.heavyCustomer.id} has ${m.heavyCustomer.executions.toLocaleString('en')}`,
    `  sampled: ${m.samples.company.length} companies; alerts small ${bucket(m.samples.alertSmall)}, median ${bucket(m.samples.alertMedian)}, ~1 MB ${bucket(m.samples.alertLarge)}`,
    '',
  ].join('\n');
}
