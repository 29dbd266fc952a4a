/**
 * The serving process collects its young generation on the serving thread alone, unless node was
 * told otherwise: checked in a child process by V8's own trace of each collection.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const MODULE = join(import.meta.dirname, 'serving-process.ts');

/** The helper threads' share of each young-generation collection of a child that tunes itself, then allocates. */
function helperTimes(nodeArgs: string[]): number[] {
  const script = `
    const { tuneServingProcess } = await import(${JSON.stringify(MODULE)});
    tuneServingProcess();
    console.log('tuned');
    const kept = [];
    for (let i = 0; i < 2_000_000; i++) { const o = { i, s: 'x' + i }; if (i % 50 === 0) kept.push(o); if (kept.length > 20_000) kept.length = 0; }
  `;
  const r = spawnSync(process.execPath, [...nodeArgs, '--import', 'tsx', '--trace-gc-nvp', '--input-type=module', '-e', script], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
  expect(r.status, r.stderr).toBe(0);
  // Collections while node and tsx load come before the process tuned itself.
  const after = r.stdout.slice(r.stdout.indexOf('tuned\n'));
  expect(after.length).toBeLessThan(r.stdout.length);
  const times = [...after.matchAll(/gc=s .*?background\.scavenge\.parallel=([\d.]+)/g)].map((m) => Number(m[1]));
  expect(times.length).toBeGreaterThan(3);
  return times;
}

describe('the serving process', () => {
  it('collects the young generation without helper threads', () => {
    expect(helperTimes([]).every((t) => t === 0)).toBe(true);
  });

  it('leaves the collection as node was told when a node flag names it', () => {
    expect(helperTimes(['--parallel-scavenge']).some((t) => t > 0)).toBe(true);
  });
});
