/** `compliance-read erase` and `prune` end to end: the CLI in a child process, on each store, with a local file store. */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordKey } from '../../src/contract/record-key.js';
import { LocalFileStore } from '../../src/files/local-file-store.js';
import { projectSegment } from '../../src/files/file-store.js';
import type { Store } from '../../src/store/store.js';
import { runCli } from '../support/cli-process.js';
import { importLines } from '../support/changes-feed.js';
import { documentKey, personalHistory } from '../support/erasure-records.js';
import { storeHarnesses } from '../support/store-harness.js';

const P = 'cli-erase';
const CUSTOMER = 'e1a5e000-3d1f-4a6b-9c8d-7e6f5a4b3c2d';
const KEPT = 'e1a5e001-3d1f-4a6b-9c8d-7e6f5a4b3c2d';

describe.each(storeHarnesses())('$adapter: compliance-read erase and prune', ({ make }) => {
  const harness = make();
  const filesDir = mkdtempSync(join(tmpdir(), 'crs-erase-files-'));
  let store: Store;
  let env: Record<string, string>;
  const fileOf = (id: string, n: number): string => join(filesDir, projectSegment(P)!, documentKey(id, n));

  beforeAll(async () => {
    store = await harness.open();
    await importLines(store, [...personalHistory(P, CUSTOMER, 3, 2), ...personalHistory(P, KEPT, 10, 1)]);
    const local = new LocalFileStore({ dir: filesDir, secret: await store.secret(), publicBaseUrl: 'http://localhost' });
    for (const [id, n] of [[CUSTOMER, 999], [CUSTOMER, 0], [CUSTOMER, 1], [KEPT, 999], [KEPT, 0]] as const) await local.putBytes(P, documentKey(id, n), 'pdf');
    await store.close();
    env = { DATABASE_URL: harness.url, FILES_DIR: filesDir };
  });
  afterAll(async () => {
    await harness.cleanup();
    rmSync(filesDir, { recursive: true, force: true });
  });

  it('explains itself in --help', () => {
    const help = runCli(['erase', '--help']);
    for (const option of ['--project <project>', '--customer <id>', '--dry-run', '--json']) expect(help).toContain(option);
    const prune = runCli(['prune', '--help']);
    for (const option of ['--before <date>', '--kind <kind>', '"executions", "alerts"', '--dry-run']) expect(prune).toContain(option);
  });

  it('counts in a dry run and changes nothing, then erases the records and deletes their files', async () => {
    const dry = JSON.parse(runCli(['erase', '--project', P, '--customer', CUSTOMER.toUpperCase(), '--dry-run', '--json'], env)) as Record<string, unknown>;
    expect(dry).toEqual({ customerId: CUSTOMER.toUpperCase(), dryRun: true, customers: 1, executions: 3, alerts: 2, documents: 3, filesDeleted: 0, filesPending: 0 });
    expect(existsSync(fileOf(CUSTOMER, 999))).toBe(true);

    const done = JSON.parse(runCli(['erase', '--project', P, '--customer', CUSTOMER, '--json'], env)) as Record<string, unknown>;
    expect(done).toMatchObject({ dryRun: false, customers: 1, executions: 3, alerts: 2, documents: 3, filesDeleted: 3, filesPending: 0 });
    for (const n of [999, 0, 1]) expect(existsSync(fileOf(CUSTOMER, n))).toBe(false);
    expect(existsSync(fileOf(KEPT, 999))).toBe(true);
    const s = await harness.open();
    try {
      expect(await s.customerKnown(P, recordKey(CUSTOMER))).toBe(false);
      expect(await s.getCompany(P, KEPT)).toBeDefined();
    } finally {
      await s.close();
    }
    // Run again: nothing left to erase, and it still succeeds.
    expect(runCli(['erase', '--project', P, '--customer', CUSTOMER], env)).toMatch(/erased customer .*: 0 customer record, 0 executions, 0 alerts/);
  });

  it('prunes executions before a date, counting first', () => {
    expect(runCli(['prune', '--kind', 'executions', '--before', '2024-01-01T00:03:00Z', '--dry-run'], env)).toBe('would delete 6 executions before 2024-01-01T00:03:00.000Z (0 document files)\n');
    const pruned = JSON.parse(runCli(['prune', '--kind', 'executions', '--before', '2024-01-01T00:03:00Z', '--json'], env)) as Record<string, unknown>;
    expect(pruned).toMatchObject({ kind: 'executions', records: 6, dryRun: false });
    expect(runCli(['prune', '--kind', 'executions', '--before', '2024-01-01T00:03:00Z', '--dry-run'], env)).toMatch(/would delete 0 executions/);
  });

  it('refuses bad input with a message and changes nothing', () => {
    expect(() => runCli(['erase', '--project', 'bad\u0007project', '--customer', KEPT], env)).toThrow(/--project must be a project id without control/);
    expect(() => runCli(['prune', '--kind', 'customers', '--before', '2024-01-01'], env)).toThrow(/Allowed choices are executions, alerts/);
    expect(() => runCli(['prune', '--kind', 'alerts', '--before', '2999-01-01'], env)).toThrow(/must not be in the future/);
    expect(() => runCli(['prune', '--kind', 'alerts', '--before', 'yesterday'], env)).toThrow(/--before must be a date/);
    expect(existsSync(fileOf(KEPT, 0))).toBe(true);
  });

  it("writes no document file back for a customer erased since an earlier demo run", () => {
    const out = join(filesDir, 'demo.ndjson');
    const demo = (): string => runCli(['demo', '--seed', '3', '--projects', '1', '--companies', '2', '--individuals', '0', '--alerts', '2', '--out', out, '--no-keys'], env);
    demo();
    const lines = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { kind: string; record: { id: string; cmsProjectId: string; documents?: { document: { objectKey: string } }[] } });
    const company = lines.find((l) => l.kind === 'customer' && (l.record.documents?.length ?? 0) > 0)!.record;
    const files = company.documents!.map((d) => join(filesDir, projectSegment(company.cmsProjectId)!, d.document.objectKey));
    expect(files.every((f) => existsSync(f))).toBe(true);
    runCli(['erase', '--project', company.cmsProjectId, '--customer', company.id], env);
    expect(files.some((f) => existsSync(f))).toBe(false);
    expect(demo()).toMatch(/stored \d+ document files/);
    expect(files.some((f) => existsSync(f))).toBe(false);
  });
});
