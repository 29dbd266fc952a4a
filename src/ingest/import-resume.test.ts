/** An import killed with SIGKILL part-way leaves a consistent store, and running it again completes it. */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { alertLine, companyLine, executionLine } from '../../test/support/records.js';

const CLI = ['--import', 'tsx', join(import.meta.dirname, '..', 'cli', 'main.ts')];
const dir = mkdtempSync(join(tmpdir(), 'crs-resume-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every stored row, in a stable order, for comparing two stores. */
function dump(file: string): unknown {
  const db = new Database(file, { readonly: true });
  try {
    return {
      customers: db.prepare('SELECT project, customer_key, has_record, is_company, version_key, etag, hex(body) AS body FROM customers ORDER BY 1, 2').all(),
      alerts: db.prepare('SELECT project, alert_key, etag, hex(body) AS body, hex(gz) AS gz FROM alerts ORDER BY 1, 2').all(),
      executions: db.prepare('SELECT project, customer_key, execution_id, sort_key, status, object_types, scenario_ids, etag FROM executions ORDER BY 1, 2, 3').all(),
      scenarios: db.prepare('SELECT * FROM execution_scenarios ORDER BY 1, 2, 3, 4, 5').all(),
    };
  } finally {
    db.close();
  }
}

/** Executions committed so far (0 before the file exists). */
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
    return 0; // not migrated yet
  }
}

function importSync(db: string, input: string): { status: number | null; stdout: string } {
  const r = spawnSync(process.execPath, [...CLI, 'import', '--json', '--db', db, input], { encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout };
}

describe('an import killed part-way', () => {
  it('resumes to exactly the store an uninterrupted import builds', async () => {
    const C = '0b5c2a4e-3d1f-4a6b-9c8d-7e6f5a4b3c2d';
    const F = 'f1e2d3c4-b5a6-4978-8a9b-0c1d2e3f4a5b';
    const lines = [companyLine('p', C, F)];
    for (let i = 0; i < 25_000; i++) {
      lines.push(executionLine('p', C, i));
      if (i % 1000 === 0) lines.push(alertLine('p', `aa5c2a4e-3d1f-4a6b-9c8d-${String(i).padStart(12, '0')}`, C, F));
    }
    const input = join(dir, 'big.ndjson');
    writeFileSync(input, lines.join('\n') + '\n');

    const clean = join(dir, 'clean.db');
    expect(importSync(clean, input).status).toBe(0);

    const killed = join(dir, 'killed.db');
    const child = spawn(process.execPath, [...CLI, 'import', '--db', killed, input], { stdio: 'ignore' });
    // Let a few batches commit, then kill without warning.
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline && committed(killed) < 3000) await new Promise((r) => setTimeout(r, 50));
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    const partial = dump(killed) as { executions: unknown[] };
    expect(partial.executions.length).toBeLessThan(25_000);

    const resumed = importSync(killed, input);
    expect(resumed.status).toBe(0);
    const summary = JSON.parse(resumed.stdout.trim().split('\n').at(-1)!) as { stored: number; unchanged: number; rejected: number };
    expect(summary.rejected).toBe(0);
    expect(summary.stored + summary.unchanged).toBe(lines.length);
    expect(dump(killed)).toEqual(dump(clean));
  }, 120_000);
});
