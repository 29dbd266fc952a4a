/** Summarises V8 CPU profiles (--cpu-prof) into the functions with the most self time. */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

export interface TopFunction {
  name: string;
  where: string;
  /** Share of the busy samples (idle ones excluded: the service waits between runs). */
  selfPercent: number;
}

export interface ProfileTop {
  functions: TopFunction[];
  /** Self time per area: dist/<folder>, node_modules/<package>, node internals, native. */
  areas: { area: string; selfPercent: number }[];
}

function areaOf(url: string): string {
  if (url === '') return '(native: syscalls, GC, V8)';
  if (url.startsWith('node:')) return 'node internals';
  // The bench's service build lives under bench/.cache/node_modules/service-<hash>/dist/.
  const service = /\/service-[0-9a-f]+\/dist\/([^/]+)\//.exec(url) ?? (url.includes('node_modules') ? null : /\/(?:src|dist)\/([^/]+)\//.exec(url));
  if (service) return `service ${service[1]}`;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  return pkg ? `node_modules/${pkg[1]}` : url;
}

function topOf(file: string, n: number): ProfileTop {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes: ProfileNode[]; samples: number[] };
  const byNode = new Map<number, number>();
  for (const id of profile.samples) byNode.set(id, (byNode.get(id) ?? 0) + 1);
  const areas = new Map<string, number>();
  let busy = 0;
  // The same function appears under many call paths: sum self samples per function and place.
  const byFunction = new Map<string, { name: string; where: string; hits: number }>();
  for (const node of profile.nodes) {
    const hits = byNode.get(node.id) ?? 0;
    if (hits === 0) continue;
    const f = node.callFrame;
    if (f.functionName === '(idle)') continue;
    busy += hits;
    const area = areaOf(f.url);
    areas.set(area, (areas.get(area) ?? 0) + hits);
    const where = f.url === '' ? '' : `${f.url.replace(/^file:\/\/.*\/service-[0-9a-f]+\/dist\//, 'dist/').replace(/^file:\/\/.*?\/node_modules\//, 'node_modules/')}:${f.lineNumber + 1}`;
    const key = `${f.functionName}@${where}`;
    const entry = byFunction.get(key) ?? { name: f.functionName || '(anonymous)', where, hits: 0 };
    entry.hits += hits;
    byFunction.set(key, entry);
  }
  const share = (hits: number): number => (100 * hits) / Math.max(1, busy);
  return {
    functions: [...byFunction.values()]
      .sort((a, b) => b.hits - a.hits)
      .slice(0, n)
      .map((e) => ({ name: e.name, where: e.where, selfPercent: share(e.hits) })),
    areas: [...areas].sort((a, b) => b[1] - a[1]).slice(0, 10).map(([area, hits]) => ({ area, selfPercent: share(hits) })),
  };
}

/** The top self-time functions of each store's service profile, as text and as data. */
export function profileSummaries(dirs: { store: string; dir: string }[], n = 15): { text: string; top: Record<string, ProfileTop> } {
  const top: Record<string, ProfileTop> = {};
  let text = '';
  for (const { store, dir } of dirs) {
    if (!existsSync(dir)) continue;
    for (const f of readdirSync(dir).filter((x) => x.endsWith('.cpuprofile'))) {
      const t = topOf(join(dir, f), n);
      top[`${store}/${basename(f)}`] = t;
      text += `CPU profile of the ${store} service (${f}), % of busy samples:\n  by area:`;
      text += t.areas.map((a) => ` ${a.area} ${a.selfPercent.toFixed(1)} %`).join(',');
      text += `\n  top ${n} functions by self time:\n`;
      for (const fn of t.functions) text += `  ${fn.selfPercent.toFixed(1).padStart(5)} %  ${fn.name}  ${fn.where}\n`;
    }
  }
  return { text, top };
}
