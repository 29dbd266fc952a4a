/** `compliance-read access-log`: the records a list answer returned, in the table and in --json. */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { batchesOf } from '../../src/access-log/batches.js';
import { accessLogCommand } from '../../src/cli/access-log-command.js';
import { accessLogEntry } from '../support/access-log-entries.js';
import { openTestStore, type TestStore } from '../support/store-harness.js';

const P = 'proj-cli-records';
const RETURNED = ['e-1', 'e-2', 'e-3'];
let ts: TestStore;

beforeAll(async () => {
  ts = await openTestStore();
  await ts.store.appendAccessLog(batchesOf([{ ...accessLogEntry(1, 'customer-1', P), route: '/v1/customers/:customerId/scenario-executions', records: RETURNED }, accessLogEntry(2, 'e-2', P)]));
  await ts.store.close();
});
afterAll(async () => ts?.cleanup());

/** Runs the command in this process and answers what it printed on stdout. */
async function run(args: string[]): Promise<string> {
  const out: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (out.push(String(chunk)), true));
  try {
    await accessLogCommand().exitOverride().parseAsync([...args, '--db', ts.url], { from: 'user' });
  } finally {
    vi.restoreAllMocks();
  }
  return out.join('');
}

describe('access-log', () => {
  it('lists a list answer’s read under any record it returned, with their count and then their ids in --json', async () => {
    const lines = (await run(['--project', P, '--record', 'e-3', '--json'])).trim().split('\n');
    expect(lines.map((l) => JSON.parse(l) as Record<string, unknown>)).toEqual([
      expect.objectContaining({ requestId: `r-${P}-1`, recordId: 'customer-1', recordCount: 3, records: RETURNED }),
    ]);
    expect(Object.keys(JSON.parse(lines[0]!) as object).slice(-2)).toEqual(['recordCount', 'records']);
  });

  it('shows how many records each answer returned in the table, a dash when it named none', async () => {
    const out = (await run(['--project', P, '--record', 'e-2'])).trim().split('\n');
    expect(out[0]).toMatch(/record\s+returned\s+client/);
    expect(out[1]).toMatch(/customer-1\s+3\s+127\.0\.0\.1/);
    expect(out[2]).toMatch(/e-2\s+-\s+127\.0\.0\.1/);
    expect(out[3]).toBe('2 entries');
  });
});
