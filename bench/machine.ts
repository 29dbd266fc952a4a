/** What machine the numbers come from, read rather than assumed. */
import { readFileSync } from 'node:fs';
import os from 'node:os';

export interface MachineInfo {
  cpus: number;
  cpuModel: string;
  memoryGb: number;
  node: string;
  /** 1-minute load average when the run started: other tenants' load skews absolute numbers. */
  loadAverage: number;
}

/** Reads nproc, the CPU model (from /proc/cpuinfo when present), memory and the load. */
export function machineInfo(): MachineInfo {
  let cpuModel = os.cpus()[0]?.model ?? 'unknown';
  try {
    cpuModel = /model name\s*:\s*(.+)/.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? cpuModel;
  } catch {
    // Not Linux: os.cpus() is what there is.
  }
  return { cpus: os.availableParallelism(), cpuModel, memoryGb: Math.round(os.totalmem() / 2 ** 30), node: process.version, loadAverage: os.loadavg()[0]! };
}
