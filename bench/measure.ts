/** The A/B loop: ceiling and each store back to back, repeated, per scenario and connection count. */
import { runLoad, type LoadResult } from './load.js';
import { cpuSince } from './process-cpu.js';
import type { RequestSpec, Scenario, ScenarioName } from './scenarios.js';

/** Something to measure: the ceiling or a store's service. */
export interface Target {
  name: string;
  base: string;
  /** The processes whose CPU an answer of this target costs (the service, and its database server); none: not measured. */
  cpuPids?: () => number[];
}

export interface Sample extends LoadResult {
  scenario: ScenarioName;
  target: string;
  connections: number;
  rep: number;
  /** CPU of the target's processes per answer, in µs; NaN when not measured. */
  cpuPerResponse: number;
  /** CPU of the load generator (this process) per answer, in µs: on 2 cores it competes with the target. */
  clientCpuPerResponse: number;
}

export interface Plan {
  scenarios: readonly Scenario[];
  connections: number[];
  reps: number;
  seconds: number;
  /** Ceiling first (warmUp relies on it), then the stores. */
  targets: Target[];
  /** The request list for a scenario on a target, resolved just before its measurement. */
  requests(scenario: Scenario, target: Target): Promise<RequestSpec[]>;
  log(line: string): void;
  /** Time after each window before the target's CPU is read, so work it deferred (access log flushes) lands in its own window. */
  cpuSettleMs?: number;
}

/**
 * A mixed load per target before anything is recorded. Every record was already read once by the
 * capture (so caches are warm); this is for the JIT: without it the first scenario measured
 * (company) ran at a third of its later speed in the first small runs.
 */
export async function warmUp(plan: Plan, serviceSeconds: number, ceilingSeconds: number): Promise<void> {
  for (const [i, target] of plan.targets.entries()) {
    const all: RequestSpec[] = [];
    for (const s of plan.scenarios) all.push(...(await plan.requests(s, target)));
    await runLoad(target.base, all, Math.min(...plan.connections), i === 0 ? ceilingSeconds : serviceSeconds, 0);
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
          const pids = target.cpuPids?.() ?? [];
          const cpuUsed = cpuSince(pids);
          const clientCpu = process.cpuUsage();
          const r = await runLoad(target.base, requests, connections, plan.seconds, scenario.expect);
          const client = process.cpuUsage(clientCpu);
          const clientCpuPerResponse = r.responses > 0 ? (client.user + client.system) / r.responses : NaN;
          if (pids.length > 0 && plan.cpuSettleMs !== undefined) await new Promise((done) => setTimeout(done, plan.cpuSettleMs));
          const cpuPerResponse = pids.length > 0 && r.responses > 0 ? cpuUsed() / r.responses : NaN;
          samples.push({ ...r, scenario: scenario.name, target: target.name, connections, rep, cpuPerResponse, clientCpuPerResponse });
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
