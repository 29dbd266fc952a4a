/**
 * Memory of a process and its descendants together, read from /proc: each one's private pages, and
 * the shared ones (Node's binary, the bundle) once, as many as the process holding the most of them.
 * PSS would divide shared pages among every process on the machine that maps them, unrelated ones too.
 */
import { readFileSync, readdirSync } from 'node:fs';

/** Parent pid of each running process. */
function parents(): Map<number, number> {
  const out = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      out.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** Pids below `root` (children, their children, ...), without `root`. */
export function descendantsOf(root: number): number[] {
  const byParent = new Map<number, number[]>();
  for (const [pid, ppid] of parents()) byParent.set(ppid, [...(byParent.get(ppid) ?? []), pid]);
  const out: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    for (const child of byParent.get(queue.shift()!) ?? []) {
      out.push(child);
      queue.push(child);
    }
  }
  return out;
}

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
