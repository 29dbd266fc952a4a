/** The A/B loop: ceiling and each store back to back, repeated, per scenario and connection count. */
import { runLoad, type Generator, type LoadResult } from './load.js';
import { cpuSince } from './process-cpu.js';
import { median } from './summary.js';
import type { RequestSpec, Scenario, ScenarioName } from './scenarios.js';

/** Something to measure: the ceiling or a store's service. */
export interface Target {
  name: string;
  base: string;
  /** The processes whose CPU an answer of this target costs (the service, and its database server); none: not measured. */
  cpuPids?: () => number[];
  /** Processes that stand in for the setting measured (the link's forwarder), whose CPU is counted apart. */
  emulatorPids?: () => number[];
}

export interface Sample extends LoadResult {
  scenario: ScenarioName;
  target: string;
  connections: number;
  rep: number;
  /** CPU of the target's processes per answer, in µs; NaN when not measured. */
  cpuPerResponse: number;
  /** CPU of its emulator processes per answer, in µs; NaN when it has none. */
  emulatorCpuPerResponse: number;
}

/** The load generator against a constant answer: what it can send at most, per connection count. */
export interface Calibration {
  connections: number;
  /** Median req/s over the repetitions. */
  rps: number;
  repsRps: number[];
  /** CPU of the generator per answer (µs), median. */
  clientCpuPerResponse: number;
}

export interface Plan {
  scenarios: readonly Scenario[];
  connections: number[];
  reps: number;
  seconds: number;
  generator: Generator;
  /** Ceiling first (warmUp relies on it), then the stores. */
  targets: Target[];
  /** The request list for a scenario on a target, resolved just before its measurement. */
  requests(scenario: Scenario, target: Target): Promise<RequestSpec[]>;
  log(line: string): void;
  /** Time after each window before the target's CPU is read, so work it deferred (access log flushes) lands in its own window. */
  cpuSettleMs?: number;
}

/** A mixed load per target before anything is recorded, so the first scenario is not measured on a cold JIT (the capture already warmed the caches). */
export async function warmUp(plan: Plan, serviceSeconds: number, ceilingSeconds: number): Promise<void> {
  for (const [i, target] of plan.targets.entries()) {
    const all: RequestSpec[] = [];
    for (const s of plan.scenarios) all.push(...(await plan.requests(s, target)));
    await runLoad(plan.generator, target.base, all, Math.min(...plan.connections), i === 0 ? ceilingSeconds : serviceSeconds, 0);
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
          const emulator = target.emulatorPids?.() ?? [];
          const emulatorUsed = cpuSince(emulator);
          const r = await runLoad(plan.generator, target.base, requests, connections, plan.seconds, scenario.expect);
          if (pids.length > 0 && plan.cpuSettleMs !== undefined) await new Promise((done) => setTimeout(done, plan.cpuSettleMs));
          const cpuPerResponse = pids.length > 0 && r.responses > 0 ? cpuUsed() / r.responses : NaN;
          const emulatorCpuPerResponse = emulator.length > 0 && r.responses > 0 ? emulatorUsed() / r.responses : NaN;
          samples.push({ ...r, scenario: scenario.name, target: target.name, connections, rep, cpuPerResponse, emulatorCpuPerResponse });
          byTarget.set(target.name, [...(byTarget.get(target.name) ?? []), r.rps]);
          if (r.unexpected > 0) plan.log(`  invalid: ${scenario.name} on ${target.name}: ${r.unexpected} answers were not ${scenario.expect} or failed (of ${r.responses})`);
        }
      }
      const parts = [...byTarget].map(([t, rps]) => `${t} ${rps.map((x) => Math.round(x)).join('/')}`);
      plan.log(`  ${scenario.name.padEnd(18)} c${connections}: ${parts.join('  ')} req/s`);
    }
  }
  return samples;
}

/**
 * The generator against a bare server answering a constant small body, with the company requests
 * (same headers and spread, so the generator's own work per request is the same): `reps` windows
 * per connection count. Ratios hold only if this is well above every ceiling.
 */
export async function calibrate(plan: Plan, base: string, requests: RequestSpec[]): Promise<Calibration[]> {
  const out: Calibration[] = [];
  // A fresh server runs on a cold JIT at first: that window is not counted.
  await runLoad(plan.generator, base, requests, Math.min(...plan.connections), Math.max(2, plan.seconds), 0);
  for (const connections of plan.connections) {
    const runs = [];
    for (let rep = 0; rep < plan.reps; rep += 1) runs.push(await runLoad(plan.generator, base, requests, connections, plan.seconds, 200));
    const repsRps = runs.map((r) => r.rps);
    out.push({ connections, rps: median(repsRps), repsRps, clientCpuPerResponse: median(runs.map((r) => r.clientCpuPerResponse)) });
    plan.log(`  calibration        c${connections}: ${repsRps.map((x) => Math.round(x)).join('/')} req/s against a constant answer`);
  }
  return out;
}
