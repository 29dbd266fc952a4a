/** `npm start` as an operator runs it: the signals npm passes on must reach the service itself. */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { scripts: Record<string, string> };

describe.skipIf(process.platform === 'win32')('the start script', () => {
  it('runs the service in the shell npm starts, so SIGTERM to `npm start` stops the service and leaves nothing behind', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'crs-start-script-'));
    let servicePid = 0;
    try {
      // A stand-in for node: records its process id, then waits like a serving process.
      writeFileSync(join(dir, 'node'), '#!/bin/sh\necho $$ > "$PID_FILE.tmp" && mv "$PID_FILE.tmp" "$PID_FILE"\nexec sleep 30\n', { mode: 0o755 });
      const pidFile = join(dir, 'pid');
      // npm runs a script with `sh -c` and passes SIGTERM and SIGINT on to that shell's process.
      const child = spawn('sh', ['-c', pkg.scripts.start!], { env: { ...process.env, PATH: `${dir}:${process.env.PATH}`, PID_FILE: pidFile }, stdio: 'ignore' });
      const exited = once(child, 'exit');
      for (let i = 0; i < 200 && !existsSync(pidFile); i++) await new Promise((r) => setTimeout(r, 25));
      servicePid = Number(readFileSync(pidFile, 'utf8').trim());
      expect(servicePid).toBe(child.pid);
      child.kill('SIGTERM');
      await exited;
      expect(() => process.kill(servicePid, 0)).toThrow();
    } finally {
      if (servicePid > 0) {
        try {
          process.kill(servicePid, 'SIGKILL');
        } catch {
          // already gone, as it should be
        }
      }
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
