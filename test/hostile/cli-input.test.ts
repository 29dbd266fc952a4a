/** Hostile values given to the CLI: a project id that forges output lines, leap-second dates. */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/store/api-keys.js';
import { batchesOf } from '../../src/access-log/batches.js';
import { openTestStore, type TestStore } from '../support/store-harness.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
let ts: TestStore;
beforeAll(async () => {
  ts = await openTestStore();
});
afterAll(async () => {
  await ts?.store.close();
  await ts?.cleanup();
});

function cli(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args, '--db', ts.url], { cwd: ROOT, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('keys', () => {
  it('refuses a project id with a newline or other control character, or an empty one', () => {
    for (const project of ['proj\nxxxxxxxxxxxx  other-project  admin  companies:read  active', '']) {
      const r = cli('keys', 'create', '--project', project);
      expect(r.status, project).not.toBe(0);
      expect(r.stderr).toMatch(/--project must be a .*project id/);
      expect(r.stderr).not.toMatch(/at .*\.ts:\d+/); // a message, not a stack trace
    }
  });

  it('lists one line per key, showing control characters of stored values escaped', async () => {
    await createApiKey(ts.store, { project: 'proj-list\nforged-id  forged-project', name: 'label\r\u001b[2J' });
    const r = cli('keys', 'list', '--project', 'proj-list\nforged-id  forged-project');
    expect(r.status).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
    expect(r.stdout).toContain('proj-list\\u000aforged-id');
    expect(r.stdout).toContain('label\\u000d\\u001b[2J');
  });

  it('reads a leap second in --expires as the second after it', () => {
    const r = cli('keys', 'create', '--project', 'proj-leap', '--expires', '2026-12-31T23:59:60Z');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('expires 2027-01-01T00:00:00.000Z');
  });
});

describe('access-log', () => {
  it('lists one row per entry, showing control characters of a requested id escaped', async () => {
    const forged = 'c-1\n2026-01-01T00:00:00.000Z  forged-key  200  /v1/companies/:id/details  victim';
    await ts.store.appendAccessLog(
      batchesOf([{ at: new Date().toISOString(), keyId: null, project: 'proj-rows', route: '/v1/companies/:id/details', recordId: forged, status: 404, requestId: 'r1', client: '127.0.0.1' }]),
    );
    const r = cli('access-log', '--project', 'proj-rows');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('c-1\\u000a2026-01-01');
    expect(r.stdout.trim().split('\n')).toHaveLength(3); // head, the entry, the count
  });

  it('reads a leap second in --since and --until, and refuses an impossible date with a message', () => {
    const ok = cli('access-log', '--project', 'proj-leap', '--since', '2016-12-31T23:59:60Z', '--until', '2016-12-31T23:59:60.5+01:00');
    expect(ok.stderr).toBe('');
    expect(ok.status).toBe(0);
    const bad = cli('access-log', '--project', 'proj-leap', '--since', '2026-02-30T00:00:00Z');
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/--since must be a date/);
  });
});
