/** The A/B loop: ceiling and each store back to back, repeated, per scenario and connection count. */
import { runLoad, type LoadResult } from './load.js';
import type { RequestSpec, Scenario, ScenarioName } from './scenarios.js';

/** Something to measure: the ceiling or a store's service. */
export interface Target {
  name: string;
  base: string;
}

export interface Sample extends LoadResult {
  scenario: ScenarioName;
  target: string;
  connections: number;
  rep: number;
}

export interface Plan {
  scenarios: readonly Scenario[];
  connections: number[];
  reps: number;
  seconds: number;
  /** Ceiling first, then the stores. */
  targets: Target[];
  /** The request list for a scenario on a target, resolved just before its measurement. */
  requests(scenario: Scenario, target: Target): Promise<RequestSpec[]>;
  log(line: string): void;
}

/** A short mixed load per target so the first measured scenario does not pay for JIT warm-up. */
export async function warmUp(plan: Plan, seconds: number): Promise<void> {
  for (const target of plan.targets) {
    const all: RequestSpec[] = [];
    for (const s of plan.scenarios) all.push(...(await plan.requests(s, target)));
    await runLoad(target.base, all, Math.min(...plan.connections), seconds, 0);
  }
}

/**
 * Runs every measurement. Within one (scenario, connections) the targets alternate A B A B …, so
 * a slow phase of the machine (other tenants, thermal, GC of the bench) hits both sides of a ratio.
 */
export async function measureAll(plan: Plan): Promise<Sample[]> {
  const samples: Sample[] = [];
  for (const connections of plan.connections) {
    for (const scenario of plan.scenarios) {
      const byTarget = new Map<string, number[]>();
      for (let rep = 0; rep < plan.reps; rep += 1) {
        for (const target of plan.targets) {
          const requests = await plan.requests(scenario, target);
          const r = await runLoad(target.base, requests, connections, plan.seconds, scenario.expect);
          samples.push({ ...r, scenario: scenario.name, target: target.name, connections, rep });
          byTarget.set(target.name, [...(byTarget.get(target.name) ?? []), r.rps]);
          if (r.unexpected > 0) plan.log(`  warning: ${scenario.name} on ${target.name}: ${r.unexpected} of ${r.responses} answers were not ${scenario.expect}`);
        }
      }
      const parts = [...byTarget].map(([t, rps]) => `${t} ${rps.map((x) => Math.round(x)).join('/')}`);
      plan.log(`  ${scenario.name.padEnd(18)} c${connections}: ${parts.join('  ')} req/s`);
    }
  }
  return samples;
}
