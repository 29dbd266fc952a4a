/**
 * The SQLite file cannot be written: read-only, or its disk full. The import stops with a clear
 * error, keeps only whole batches, and a later run completes it.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { companyHistoryLines, companyLine } from '../support/records.js';
import { dumpSqliteStore, integrityOf, isSubsetOf } from '../support/sqlite-dump.js';

const CLI = ['--import', 'tsx', join(import.meta.dirname, '..', '..', 'src', 'cli', 'main.ts')];
const dir = mkdtempSync(join(tmpdir(), 'crs-faults-'));
const root = process.getuid?.() === 0;
const mounts: string[] = [];
afterAll(() => {
  for (const m of mounts) spawnSync('umount', [m]);
  rmSync(dir, { recursive: true, force: true });
});

const C = '0b5c2a4e-3d1f-4a6b-9c8d-7e6f5a4b3c2d';
const F = 'f1e2d3c4-b5a6-4978-8a9b-0c1d2e3f4a5b';
const lines = companyHistoryLines('p', C, F, 6_000, 500);
const input = join(dir, 'input.ndjson');
writeFileSync(input, lines.join('\n') + '\n');
chmodSync(input, 0o644);

/**
 * Runs the CLI; `meetFileModes` runs it, as root, without the capabilities that let root ignore file
 * modes (util-linux's setpriv), so it meets them as a service account would while still reading the
 * project wherever it was cloned; `shellPrefix` runs shell commands (limits) first.
 */
function cli(args: string[], opts: { meetFileModes?: boolean; shellPrefix?: string } = {}) {
  const argv = [process.execPath, ...CLI, ...args];
  const dropped = opts.meetFileModes === true && root ? ['setpriv', '--bounding-set=-dac_override,-dac_read_search', '--'] : [];
  const command = [...dropped, ...argv];
  const r =
    opts.shellPrefix === undefined
      ? spawnSync(command[0]!, command.slice(1), { encoding: 'utf8', env: { ...process.env, HOME: dir } })
      : spawnSync('bash', ['-c', `${opts.shellPrefix}; exec "$@"`, 'bash', ...argv], { encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function cleanStore(name: string): string {
  const file = join(dir, name);
  expect(cli(['import', '--json', '--db', file, input]).status).toBe(0);
  return file;
}

describe('a store file that cannot be written', () => {
  it('refuses an import into a read-only store with a clear error and leaves the file as it was', () => {
    const roDir = join(dir, 'ro');
    mkdirSync(roDir);
    const file = join(roDir, 'store.db');
    copyFileSync(cleanStore('source.db'), file);
    const before = readFileSync(file);
    const more = join(dir, 'more.ndjson');
    writeFileSync(more, `${companyLine('p', 'cb5c2a4e-3d1f-4a6b-9c8d-7e6f5a4b3c2d', F)}\n`);
    chmodSync(more, 0o644);
    chmodSync(file, 0o444);
    chmodSync(roDir, 0o555);
    // Root ignores file modes unless it gives up the capabilities to.
    const r = cli(['import', '--db', file, more], { meetFileModes: true });
    chmodSync(roDir, 0o755);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/SQLite store open failed: the SQLite file (or its directory is read-only|cannot be opened)/);
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect(readFileSync(file).equals(before)).toBe(true);
  });

  it('stops an import on a full disk with a clear error, keeps only whole batches, and a later run completes it', () => {
    const whole = dumpSqliteStore(cleanStore('clean.db'));
    let file: string;
    let r: ReturnType<typeof cli>;
    if (root) {
      // A real full disk: a 5 MiB tmpfs, grown once there is room again.
      const mnt = join(dir, 'small-disk');
      mkdirSync(mnt);
      expect(spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=5m', 'tmpfs', mnt]).status).toBe(0);
      mounts.push(mnt);
      file = join(mnt, 'store.db');
      r = cli(['import', '--db', file, input]);
      expect(r.stderr).toMatch(/the disk holding the SQLite file is full \(SQLITE_FULL\)/);
    } else {
      // Without root, a file size limit makes the file unable to grow the same way.
      file = join(dir, 'limited.db');
      r = cli(['import', '--db', file, input], { shellPrefix: "trap '' XFSZ; ulimit -f 3072" });
      expect(r.stderr).toMatch(/could not be read or written \(disk full, file size limit or I\/O failure\)/);
    }
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/once fixed, run the same import again: it resumes/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    if (root) spawnSync('mount', ['-o', 'remount,size=256m', join(dir, 'small-disk')]);
    expect(integrityOf(file)).toBe('ok');
    const partial = dumpSqliteStore(file);
    if (root) expect(partial.executions.length).toBeGreaterThan(0); // the batches that fitted are kept
    expect(partial.executions.length).toBeLessThan(whole.executions.length);
    expect(isSubsetOf(partial, whole)).toBe(true);

    const again = cli(['import', '--json', '--db', file, input]);
    expect(again.status).toBe(0);
    expect(dumpSqliteStore(file)).toEqual(whole);
  });
});
