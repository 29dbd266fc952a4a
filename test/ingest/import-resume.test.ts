/**
 * An import killed with SIGKILL at random points leaves a consistent store each time, and
 * running it again completes it. The seed is printed; CRS_KILL_SEED replays a run.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { seeded } from '../support/ingest-records.js';
import { liveInGroup } from '../support/processes.js';
import { companyHistoryLines } from '../support/records.js';
import { dumpSqliteStore, integrityOf, isSubsetOf } from '../support/sqlite-dump.js';
import { until } from '../support/until.js';

const CLI = ['--import', 'tsx', join(import.meta.dirname, '..', '..', 'src', 'cli', 'main.ts')];
const dir = mkdtempSync(join(tmpdir(), 'crs-resume-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Executions committed so far (0 before the file exists or is migrated). */
function committed(file: string): number {
  if (!existsSync(file)) return 0;
  try {
    const db = new Database(file, { readonly: true });
    try {
      return (db.prepare('SELECT count(*) AS n FROM executions').get() as { n: number }).n;
    } finally {
      db.close();
    }
  } catch {
    return 0;
  }
}

function importSync(db: string, input: string): { status: number | null; stdout: string } {
  const r = spawnSync(process.execPath, [...CLI, 'import', '--json', '--db', db, input], { encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout };
}

const KILLS = 5;

describe('an import killed part-way', () => {
  it(`resumes to exactly the store an uninterrupted import builds, after ${KILLS} kills at random points`, async () => {
    const seed = Number(process.env.CRS_KILL_SEED ?? Math.floor(Math.random() * 2 ** 31));
    console.log(`import kill points: CRS_KILL_SEED=${seed}`);
    const random = seeded(seed);
    const C = '0b5c2a4e-3d1f-4a6b-9c8d-7e6f5a4b3c2d';
    const F = 'f1e2d3c4-b5a6-4978-8a9b-0c1d2e3f4a5b';
    const lines = companyHistoryLines('p', C, F, 25_000, 1000);
    const input = join(dir, 'big.ndjson');
    writeFileSync(input, lines.join('\n') + '\n');

    const clean = join(dir, 'clean.db');
    expect(importSync(clean, input).status).toBe(0);
    const whole = dumpSqliteStore(clean);

    const killed = join(dir, 'killed.db');
    const seen: number[] = [];
    for (let k = 0; k < KILLS; k++) {
      // A group of its own, so that the kill reaches the command's import process at the same instant.
      const child = spawn(process.execPath, [...CLI, 'import', '--db', killed, input], { stdio: 'ignore', detached: true });
      const exited = new Promise((r) => child.once('exit', r));
      // A third of the kills land at a random moment of start-up (opening, migrating, the first
      // batch); the rest once a random share of the executions still missing has committed.
      if (random() < 1 / 3) {
        await new Promise((r) => setTimeout(r, Math.floor(random() * 1500)));
      } else {
        const now = committed(killed);
        const target = now + 1 + Math.floor(random() * 0.7 * (25_000 - now));
        const deadline = Date.now() + 60_000;
        while (Date.now() < deadline && child.exitCode === null && committed(killed) < target) await new Promise((r) => setTimeout(r, 20));
      }
      process.kill(-child.pid!, 'SIGKILL');
      await exited;
      await until('every process of the import to end', () => liveInGroup(child.pid!).length === 0, 30_000, 20);
      seen.push(committed(killed));
      if (!existsSync(killed) || committed(killed) === 0) continue;
      expect(integrityOf(killed), `after kill ${k + 1} (seed ${seed})`).toBe('ok');
      expect(isSubsetOf(dumpSqliteStore(killed), whole), `after kill ${k + 1} (seed ${seed}): only whole records`).toBe(true);
    }

    console.log(`executions committed after each kill: ${seen.join(', ')} of 25000`);
    const resumed = importSync(killed, input);
    expect(resumed.status).toBe(0);
    const summary = JSON.parse(resumed.stdout.trim().split('\n').at(-1)!) as { stored: number; unchanged: number; rejected: number };
    expect(summary.rejected).toBe(0);
    expect(summary.stored + summary.unchanged).toBe(lines.length);
    expect(dumpSqliteStore(killed), `seed ${seed}`).toEqual(whole);
  }, 240_000);
});
