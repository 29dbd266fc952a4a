/** `compliance-read import` runs the import on a thread of its own: standard input, stops and store failures reach the command as before. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { companyLine, executionLine } from '../support/records.js';

const CLI = ['--import', 'tsx', join(import.meta.dirname, '..', '..', 'src', 'cli', 'main.ts')];
const dir = mkdtempSync(join(tmpdir(), 'crs-import-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const P = 'proj-a';
const C = '0b5c2a4e-3d1f-4a6b-9c8d-7e6f5a4b3c2d';
const F = 'f1e2d3c4-b5a6-4978-8a9b-0c1d2e3f4a5b';

function cli(args: string[], input?: string) {
  const r = spawnSync(process.execPath, [...CLI, ...args], { encoding: 'utf8', input, env: { ...process.env, HOME: dir } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const summaryOf = (stdout: string): unknown => JSON.parse(stdout.trim().split('\n').at(-1)!);

describe('import command', () => {
  it('imports standard input given as -', () => {
    const lines = [companyLine(P, C, F), executionLine(P, C, 1), executionLine(P, C, 2)];
    const r = cli(['import', '--json', '--db', join(dir, 'stdin.db'), '-'], `${lines.join('\n')}\n`);
    expect(r.status).toBe(0);
    expect(summaryOf(r.stdout)).toMatchObject({ read: 3, stored: 3, rejected: 0 });
  }, 60_000);

  it('stops past --max-rejects with the line it stopped at, having stored the lines before it', () => {
    const input = join(dir, 'bad.ndjson');
    writeFileSync(input, `${[executionLine(P, C, 1), '{"kind":"alert"}', '{"kind":"alert"}', executionLine(P, C, 2)].join('\n')}\n`);
    const r = cli(['import', '--json', '--max-rejects', '1', '--db', join(dir, 'bad.db'), input]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`the import stopped at line 3 of ${input}`);
    expect(summaryOf(r.stdout)).toMatchObject({ read: 3, stored: 1, rejected: 2 });
    expect(readFileSync(`${input}.rejects.ndjson`, 'utf8').trim().split('\n')).toHaveLength(2);
  }, 60_000);

  it('says how to resume when the store fails', () => {
    const input = join(dir, 'ok.ndjson');
    writeFileSync(input, `${executionLine(P, C, 1)}\n`);
    const r = cli(['import', '--db', 'postgres://postgres@127.0.0.1:1/none', input]);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('once fixed, run the same import again: it resumes');
    expect(r.stderr).not.toContain('import\'s thread');
  }, 60_000);
});
