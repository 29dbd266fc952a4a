/** A command the bench needs from Debian's packages (wrk, HAProxy): found on PATH, or installed as .ci/run installs chromium. */
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { join } from 'node:path';

/** The first `command` on PATH, or undefined. */
function onPath(command: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(':')) {
    const file = join(dir === '' ? '.' : dir, command);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // Not in this directory.
    }
  }
  return undefined;
}

/** Installs Debian's `pkg` when `command` is missing; returns the command's path. */
export function ensureDebianTool(command: string, pkg: string, log: (line: string) => void): string {
  const found = onPath(command);
  if (found !== undefined) return found;
  log(`${command} is missing: installing Debian's package (apt-get install ${pkg})`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update', '-qq'], ['install', '-y', '-qq', pkg]]) {
    const r = spawnSync('apt-get', args, { stdio: ['ignore', 'ignore', 'inherit'], env });
    if (r.status !== 0) throw new Error(`apt-get ${args.join(' ')} failed (${r.error?.message ?? `exit ${r.status}`}): install ${pkg} (Debian's package) and run again`);
  }
  const installed = onPath(command);
  if (installed === undefined) throw new Error(`${command} is still not on PATH after apt-get install ${pkg}`);
  return installed;
}
