/**
 * Memory of processes together (a command and its descendants, test/support/processes.ts), read
 * from /proc: each one's private pages, and the shared ones (Node's binary, the bundle) once, as
 * many as the process holding the most of them. PSS would divide shared pages among every process
 * on the machine that maps them, unrelated ones too.
 */
import { readFileSync } from 'node:fs';

/** A process's resident pages in kB, private and shared; zeros once it is gone. */
function residentKb(pid: number): { private: number; shared: number } {
  try {
    const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    const field = (name: string): number => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(rollup)?.[1] ?? 0);
    return { private: field('Private_Clean') + field('Private_Dirty'), shared: field('Shared_Clean') + field('Shared_Dirty') };
  } catch {
    return { private: 0, shared: 0 };
  }
}

/** The resident memory of `pids` together, in kB: every private page, and the shared ones once. */
export function residentTogetherKb(pids: readonly number[]): number {
  const each = pids.map(residentKb);
  return each.reduce((sum, r) => sum + r.private, 0) + Math.max(0, ...each.map((r) => r.shared));
}
