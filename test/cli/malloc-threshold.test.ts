/**
 * `compliance-read import` runs in a child process whose environment fixes malloc's mmap threshold;
 * signals sent to the command reach that child, and an environment that already sets it is used as is.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MMAP_THRESHOLD_BYTES, MMAP_THRESHOLD_ENV, needsFixedThreshold, onGlibc } from '../../src/cli/malloc-threshold.js';
import { companyLine } from '../support/records.js';
import { until } from '../support/until.js';

const CLI = ['--import', 'tsx', join(import.meta.dirname, '..', '..', 'src', 'cli', 'main.ts')];
const dir = mkdtempSync(join(tmpdir(), 'crs-malloc-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const glibc = onGlibc();

/** Pids whose parent is `pid`, from /proc. */
function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // The command name is in parentheses and may hold spaces: the fields after its closing one are fixed.
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) out.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** The test's environment with the threshold as given (unset when undefined). */
function envWith(threshold: string | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: dir };
  delete env[MMAP_THRESHOLD_ENV];
  if (threshold !== undefined) env[MMAP_THRESHOLD_ENV] = threshold;
  return env;
}

function environOf(pid: number): string[] {
  return readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
}

describe('the import command and malloc', () => {
  it('an environment that sets the threshold is used as is', () => {
    expect(needsFixedThreshold({ [MMAP_THRESHOLD_ENV]: '65536' })).toBe(false);
    expect(needsFixedThreshold({})).toBe(glibc);
  });

  it.runIf(glibc)('imports in a child with the threshold fixed, which a SIGTERM to the command ends too', async () => {
    const env = envWith(undefined);
    const cmd = spawn(process.execPath, [...CLI, 'import', '--json', '--db', join(dir, 'term.db'), '-'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    cmd.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const exited = new Promise<[number | null, NodeJS.Signals | null]>((resolve) => cmd.once('exit', (code, signal) => resolve([code, signal])));
    // Standard input stays open: the import waits on it in the child.
    cmd.stdin.write(`${companyLine('proj-a', '0b5c2a4e-3d1f-4a6b-9c8d-7e6f5a4b3c2d', 'f1e2d3c4-b5a6-4978-8a9b-0c1d2e3f4a5b')}\n`);
    let child: number | undefined;
    await until('the import child', () => (child = childrenOf(cmd.pid!).find((pid) => environOf(pid).includes(`${MMAP_THRESHOLD_ENV}=${MMAP_THRESHOLD_BYTES}`))) !== undefined, 30_000, 100);
    expect(environOf(cmd.pid!).some((v) => v.startsWith(`${MMAP_THRESHOLD_ENV}=`))).toBe(false);
    cmd.kill('SIGTERM');
    expect(await exited, stderr).toEqual([null, 'SIGTERM']);
    await until('the child to end', () => !existsSync(`/proc/${child}`), 30_000, 100);
  }, 60_000);

  it.runIf(glibc)('the child reads standard input', async () => {
    const env = envWith(undefined);
    const cmd = spawn(process.execPath, [...CLI, 'import', '--json', '--db', join(dir, 'stdin.db'), '-'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    cmd.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    const exited = new Promise<number | null>((resolve) => cmd.once('exit', (code) => resolve(code)));
    cmd.stdin.end(`${companyLine('proj-a', '0b5c2a4e-3d1f-4a6b-9c8d-7e6f5a4b3c2d', 'f1e2d3c4-b5a6-4978-8a9b-0c1d2e3f4a5b')}\n`);
    expect(await exited).toBe(0);
    expect(JSON.parse(stdout.trim().split('\n').at(-1)!)).toMatchObject({ read: 1, stored: 1, rejected: 0 });
  }, 60_000);

  it.runIf(glibc)('a failed import exits with the code it has when the environment sets the threshold', () => {
    const run = (threshold: string | undefined) =>
      spawnSync(process.execPath, [...CLI, 'import', '--db', 'postgres://postgres@127.0.0.1:1/none', '-'], { env: envWith(threshold), input: '', encoding: 'utf8' });
    const direct = run(String(MMAP_THRESHOLD_BYTES));
    const respawned = run(undefined);
    expect(direct.status).not.toBe(0);
    expect(respawned.status).toBe(direct.status);
    expect(respawned.stderr).toBe(direct.stderr);
  }, 60_000);
});
