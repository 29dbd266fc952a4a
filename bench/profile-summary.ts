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
  selfPercent: number;
}

function topOf(file: string, n: number): TopFunction[] {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes: ProfileNode[]; samples: number[] };
  const byNode = new Map<number, number>();
  for (const id of profile.samples) byNode.set(id, (byNode.get(id) ?? 0) + 1);
  // The same function appears under many call paths: sum self samples per function and place.
  const byFunction = new Map<string, { name: string; where: string; hits: number }>();
  for (const node of profile.nodes) {
    const hits = byNode.get(node.id) ?? 0;
    if (hits === 0) continue;
    const f = node.callFrame;
    const where = f.url === '' ? '' : `${f.url.replace(/^file:\/\/.*?\/(node_modules|dist)\//, '$1/')}:${f.lineNumber + 1}`;
    const key = `${f.functionName}@${where}`;
    const entry = byFunction.get(key) ?? { name: f.functionName || '(anonymous)', where, hits: 0 };
    entry.hits += hits;
    byFunction.set(key, entry);
  }
  const total = profile.samples.length;
  return [...byFunction.values()]
    .sort((a, b) => b.hits - a.hits)
    .slice(0, n)
    .map((e) => ({ name: e.name, where: e.where, selfPercent: (100 * e.hits) / total }));
}

/** The top self-time functions of each store's service profile, as text and as data. */
export function profileSummaries(dirs: { store: string; dir: string }[], n = 15): { text: string; top: Record<string, TopFunction[]> } {
  const top: Record<string, TopFunction[]> = {};
  let text = '';
  for (const { store, dir } of dirs) {
    if (!existsSync(dir)) continue;
    for (const f of readdirSync(dir).filter((x) => x.endsWith('.cpuprofile'))) {
      const fns = topOf(join(dir, f), n);
      top[`${store}/${basename(f)}`] = fns;
      text += `CPU profile of the ${store} service (${f}), top ${n} by self time:\n`;
      for (const fn of fns) text += `  ${fn.selfPercent.toFixed(1).padStart(5)} %  ${fn.name}  ${fn.where}\n`;
    }
  }
  return { text, top };
}
