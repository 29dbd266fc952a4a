/**
 * `compliance-read import` imports in a child process whose environment fixes malloc's mmap
 * threshold and whose young generation is capped; signals sent to the command reach that child, and
 * the child does not outlive the command.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MMAP_THRESHOLD_BYTES, MMAP_THRESHOLD_ENV, onGlibc, withFixedThreshold } from '../../src/ingest/malloc-threshold.js';
import { childrenOf, running } from '../support/processes.js';
import { companyLine } from '../support/records.js';
import { until } from '../support/until.js';

const CLI = ['--import', 'tsx', join(import.meta.dirname, '..', '..', 'src', 'cli', 'main.ts')];
const dir = mkdtempSync(join(tmpdir(), 'crs-import-process-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const glibc = onGlibc();
const LINE = `${companyLine('proj-a', '0b5c2a4e-3d1f-4a6b-9c8d-7e6f5a4b3c2d', 'f1e2d3c4-b5a6-4978-8a9b-0c1d2e3f4a5b')}\n`;

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

function cmdlineOf(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  } catch {
    return [];
  }
}

describe('the import command and its process', () => {
  it('an environment that sets the threshold is used as is', () => {
    expect(withFixedThreshold({ [MMAP_THRESHOLD_ENV]: '65536' })).toEqual({ [MMAP_THRESHOLD_ENV]: '65536' });
    expect(withFixedThreshold({ A: 'b' })).toEqual(glibc ? { A: 'b', [MMAP_THRESHOLD_ENV]: String(MMAP_THRESHOLD_BYTES) } : { A: 'b' });
  });

  /** An import of standard input left open, and the import's process once it runs. */
  async function importWaitingOnStdin(name: string) {
    const cmd = spawn(process.execPath, [...CLI, 'import', '--json', '--db', join(dir, `${name}.db`), '-'], { env: envWith(undefined), stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    cmd.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const exited = new Promise<[number | null, NodeJS.Signals | null]>((resolve) => cmd.once('exit', (code, signal) => resolve([code, signal])));
    // Standard input stays open: the import waits on it in the child.
    cmd.stdin.write(LINE);
    let child: number | undefined;
    await until('the import process', () => (child = childrenOf(cmd.pid!).find((pid) => cmdlineOf(pid).some((a) => a.endsWith('import-process-child.ts')))) !== undefined, 30_000, 100);
    return { cmd, child: child!, exited, stderr: () => stderr };
  }

  it.runIf(glibc)('imports in a child with the threshold fixed and its young generation capped, which a SIGTERM to the command ends too', async () => {
    const { cmd, child, exited, stderr } = await importWaitingOnStdin('term');
    expect(environOf(child)).toContain(`${MMAP_THRESHOLD_ENV}=${MMAP_THRESHOLD_BYTES}`);
    expect(cmdlineOf(child)).toContain('--max-semi-space-size=2');
    expect(environOf(cmd.pid!).some((v) => v.startsWith(`${MMAP_THRESHOLD_ENV}=`))).toBe(false);
    cmd.kill('SIGTERM');
    expect(await exited, stderr()).toEqual([null, 'SIGTERM']);
    await until('the child to end', () => !running(child), 30_000, 100);
  }, 60_000);

  it('the import process ends when the command is killed outright', async () => {
    const { cmd, child, exited } = await importWaitingOnStdin('kill');
    cmd.kill('SIGKILL');
    expect(await exited).toEqual([null, 'SIGKILL']);
    await until('the orphaned import to end', () => !running(child), 30_000, 100);
  }, 60_000);

  it('the child reads standard input', async () => {
    const cmd = spawn(process.execPath, [...CLI, 'import', '--json', '--db', join(dir, 'stdin.db'), '-'], { env: envWith(undefined), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    cmd.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    const exited = new Promise<number | null>((resolve) => cmd.once('exit', (code) => resolve(code)));
    cmd.stdin.end(LINE);
    expect(await exited).toBe(0);
    expect(JSON.parse(stdout.trim().split('\n').at(-1)!)).toMatchObject({ read: 1, stored: 1, rejected: 0 });
  }, 60_000);

  it("a store failure in the import's process reaches the command as the store's error, whatever the environment sets", () => {
    const run = (threshold: string | undefined) =>
      spawnSync(process.execPath, [...CLI, 'import', '--db', 'postgres://postgres@127.0.0.1:1/none', '-'], { env: envWith(threshold), input: '', encoding: 'utf8' });
    const preset = run(String(MMAP_THRESHOLD_BYTES));
    const unset = run(undefined);
    expect(unset.status).toBe(1);
    expect(unset.stderr).toContain('run the same import again');
    expect(preset.status).toBe(unset.status);
    expect(preset.stderr).toBe(unset.stderr);
  }, 60_000);
});
