/** Processes seen through /proc: children and descendants of a process, and the live members of a process group. */
import { readdirSync, readFileSync } from 'node:fs';

/** Each process's pid with the fields after its command name (state, ppid, pgrp, ...). */
function statFields(): Array<[number, string[]]> {
  const out: Array<[number, string[]]> = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // The command name is in parentheses and may hold spaces: the fields after its closing one are fixed.
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      out.push([Number(name), stat.slice(stat.lastIndexOf(')') + 2).split(' ')]);
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** Pids whose parent is `pid`. */
export function childrenOf(pid: number): number[] {
  return statFields()
    .filter(([, f]) => Number(f[1]) === pid)
    .map(([p]) => p);
}

/** Pids below `root` (children, their children, ...), without `root`, from one reading of /proc. */
export function descendantsOf(root: number): number[] {
  const byParent = new Map<number, number[]>();
  for (const [pid, f] of statFields()) {
    const ppid = Number(f[1]);
    byParent.set(ppid, [...(byParent.get(ppid) ?? []), pid]);
  }
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

/** Pids of the process group `pgid` that still run (not zombies). */
export function liveInGroup(pgid: number): number[] {
  return statFields()
    .filter(([, f]) => Number(f[2]) === pgid && f[0] !== 'Z')
    .map(([p]) => p);
}

/** Whether `pid` still runs (gone or a zombie is not). */
export function running(pid: number): boolean {
  const found = statFields().find(([p]) => p === pid);
  return found !== undefined && found[1][0] !== 'Z';
}
