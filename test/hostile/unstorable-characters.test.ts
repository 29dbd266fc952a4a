/**
 * NUL (U+0000) and unpaired surrogates, which no store can hold as text: refused in every request
 * parameter, made storable in the access log, and never able to hold back the access log's
 * catch-up, other readers' lookups, an import's other lines or a copy.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateErrorBody } from '../../src/contract/index.js';
import { OPERATIONS, type Operation } from '../../src/contract/operations.js';
import { countIndexFailures, createMetrics } from '../../src/http/metrics.js';
import { parseParameters } from '../../src/http/parameters.js';
import { ServiceError } from '../../src/contract/error-codes.js';
import { importFiles } from '../../src/ingest/importer.js';
import type { AccessLogIndexFailure } from '../../src/access-log/access-log.js';
import { copyStore } from '../../src/store/copy-store.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { ExecutionUpsert, StoreRow } from '../../src/store/store.js';
import { alertLine, companyLine, executionLine } from '../support/records.js';
import { openTestStore } from '../support/store-harness.js';
import { storeUnderTest } from '../support/stores.js';
import { startTestService, type TestService } from '../support/test-service.js';

const P = 'proj-nul';
const C = '0b5c2a4e-3d1f-4a6b-9c8d-7e6f5a4b3c2d';
const A = 'aa5c2a4e-3d1f-4a6b-9c8d-7e6f5a4b3c2d';
const DOC = 'f1e2d3c4-b5a6-4978-8a9b-0c1d2e3f4a5b';
const NUL_ID = 'a\u0000b';
const LOGGED_ID = 'a\uFFFDb';

let svc: TestService;
let key: string;
const failures: AccessLogIndexFailure[] = [];
const metrics = createMetrics();
beforeAll(async () => {
  svc = await startTestService([companyLine(P, C, DOC), alertLine(P, A, C, 'e1e2d3c4-b5a6-4978-8a9b-0c1d2e3f4a5b'), executionLine(P, C, 1), executionLine(P, C, 2)]);
  key = (await svc.key(P)).key;
  svc.store.onAccessLogIndexFailure((f) => failures.push(f));
  countIndexFailures(svc.store, metrics);
});
afterAll(async () => svc?.close());

const get = (path: string, auth = true): Promise<Response> => fetch(`${svc.url}${path}`, { headers: auth ? { authorization: `Bearer ${key}` } : {} });

/** A valid value of each path parameter, so only the parameter under test is wrong. */
const VALID_PATH: Record<string, string> = { id: C, customerId: C };
const validPath = (op: Operation, name: string): string => (op.operationId === 'getAlert' && name === 'id' ? A : VALID_PATH[name]!);

/** The request of `op` with `value` (already percent-encoded) as its parameter `name`. */
function requestOf(op: Operation, where: 'path' | 'query', name: string, value: string): string {
  let path = op.path;
  for (const p of Object.keys(op.pathParameters)) path = path.replace(`{${p}}`, where === 'path' && p === name ? value : validPath(op, p));
  return `/v1${path}${where === 'query' ? `?${name}=${value}` : ''}`;
}

async function expectRefused(res: Response, name: string): Promise<void> {
  const text = await res.text();
  expect(res.status, text).toBe(400);
  const body = JSON.parse(text) as { code: string; issues: { message: string }[] };
  expect(validateErrorBody(body).ok).toBe(true);
  expect(body.code).toBe('invalid_request');
  expect(body.issues.map((i) => i.message)).toContain(`${name}: must not contain NUL (U+0000) or unpaired surrogate characters`);
}

/** Waits until the batched writer has stored an entry of `project` for `recordId`. */
async function logged(project: string, recordId: string) {
  for (let i = 0; i < 100; i++) {
    const got = await svc.store.queryAccessLog({ project, recordId, limit: 100 });
    if (got.length > 0) return got;
    await new Promise((r) => setTimeout(r, 50));
  }
  return [];
}

/** Ids of the batches of `project` not yet in the per-record table, read from the store's own tables. */
async function unindexed(project: string): Promise<number[]> {
  const sql = 'SELECT id FROM access_log_batches WHERE project = $1 AND NOT indexed ORDER BY id';
  if (storeUnderTest() === 'sqlite') {
    const db = new Database(svc.dbUrl, { readonly: true });
    try {
      return (db.prepare(sql.replace('$1', '?').replace('NOT indexed', 'indexed = 0')).all(project) as { id: number }[]).map((r) => r.id);
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: svc.dbUrl });
  await client.connect();
  try {
    return (await client.query<{ id: string }>(sql, [project])).rows.map((r) => Number(r.id));
  } finally {
    await client.end();
  }
}

describe('characters no store can hold', () => {
  it('refuses NUL in every path and query parameter of every operation with 400 invalid_request', async () => {
    for (const op of Object.values(OPERATIONS) as Operation[]) {
      for (const name of Object.keys(op.pathParameters)) {
        for (const value of ['a%00b', `${validPath(op, name)}%00`, '%00']) await expectRefused(await get(requestOf(op, 'path', name, value)), name);
      }
      for (const name of Object.keys(op.query)) await expectRefused(await get(requestOf(op, 'query', name, 'x%00')), name);
    }
  });

  it('holds every parameter of every operation to the rule, lone surrogates included (they cannot arrive percent-encoded)', () => {
    for (const op of Object.values(OPERATIONS) as Operation[]) {
      for (const bad of ['\ud800', 'x\udfff', '\u0000', '\udc00\ud800']) {
        for (const name of Object.keys(op.pathParameters)) {
          const path = Object.fromEntries(Object.keys(op.pathParameters).map((p) => [p, p === name ? bad : validPath(op, p)]));
          expect(() => parseParameters(op, path, '/')).toThrow(ServiceError);
        }
      }
      for (const name of Object.keys(op.query)) {
        const path = Object.fromEntries(Object.keys(op.pathParameters).map((p) => [p, validPath(op, p)]));
        // A raw NUL in the URL as well as an escaped one; URLSearchParams turns lone surrogates into U+FFFD itself.
        expect(() => parseParameters(op, path, `/?${name}=x\u0000`), `${op.operationId} ${name}`).toThrow(ServiceError);
      }
      // A paired surrogate is a character like any other.
      expect(() => parseParameters(OPERATIONS.getCompanyDetails, { id: 'a😀' }, '/')).not.toThrow();
    }
  });

  it('answers a path of invalid UTF-8 (a surrogate encoded) with the contract error body', async () => {
    const res = await get('/v1/companies/a%ED%A0%80b/details');
    expect(res.status).toBe(400);
    expect(((await res.json()) as { code: string }).code).toBe('invalid_request');
  });

  it('logs a refused request with NUL in its path as U+FFFD, and the per-record catch-up still covers every batch', async () => {
    expect((await get(`/v1/companies/${NUL_ID.replace('\u0000', '%00')}/details`, false)).status).toBe(401);
    expect((await get(`/v1/companies/${NUL_ID.replace('\u0000', '%00')}/details`)).status).toBe(400);
    expect((await fetch(`${svc.url}/v1/companies/${C}/details`, { headers: { authorization: `Bearer ${key}`, 'x-request-id': 'after-nul' } })).status).toBe(200);
    expect(await logged('', LOGGED_ID)).toContainEqual(expect.objectContaining({ status: 401, recordId: LOGGED_ID, keyId: null }));
    expect(await logged(P, LOGGED_ID)).toContainEqual(expect.objectContaining({ status: 400, recordId: LOGGED_ID }));
    for (let i = 0; i < 100 && !(await logged(P, C)).some((e) => e.requestId === 'after-nul'); i++) await new Promise((r) => setTimeout(r, 50));
    await svc.store.indexAccessLog();
    expect(await unindexed('')).toEqual([]);
    expect(await unindexed(P)).toEqual([]);
    expect(failures).toEqual([]);
  });

  it('catches up the other batches when one cannot be read, and reports and counts the failure', async () => {
    const project = 'proj-corrupt';
    const entry = (requestId: string, ...recordIds: string[]): string =>
      JSON.stringify(recordIds.map((r) => ['2026-03-01T10:00:00.000Z', null, '/v1/companies/:id/details', r, 400, requestId, '127.0.0.1']));
    const at = { project, firstAt: '2026-03-01T10:00:00.000Z', lastAt: '2026-03-01T10:00:00.000Z' };
    await svc.store.appendAccessLog([
      { ...at, entries: entry('before', 'r-before'), records: '["r-before"]' },
      // As an older version wrote them: a record id with NUL, as a JSON escape.
      { ...at, entries: entry('legacy', 'x\u0000y', 'r-legacy'), records: JSON.stringify(['x\u0000y', 'r-legacy']) },
      { ...at, entries: entry('damaged', 'r-damaged'), records: '["r-damaged"' },
      { ...at, entries: entry('after', 'r-after'), records: '["r-after"]' },
    ]);
    const damaged = (await unindexed(project))[2]!;
    await svc.store.indexAccessLog();
    expect(await unindexed(project)).toEqual([damaged]);
    // Each id of the batch with NUL is found through the per-record table, the NUL as U+FFFD.
    expect((await svc.store.queryAccessLog({ project, recordId: 'r-legacy', limit: 10 })).map((e) => e.requestId)).toEqual(['legacy']);
    // The damaged batch stays flagged, so queries still read it.
    expect((await svc.store.queryAccessLog({ project, recordId: 'r-damaged', limit: 10 })).map((e) => e.requestId)).toEqual(['damaged']);
    expect(failures).toContainEqual({ err: expect.any(Error), batch: { project, id: damaged } });
    expect(failures.every((f) => f.batch === undefined || f.batch.id === damaged)).toBe(true);
    const text = await metrics.registry.metrics();
    expect(text).toMatch(/crs_access_log_index_failures_total\{scope="batch"\} [1-9]/);
    expect(text).toMatch(/crs_access_log_index_failures_total\{scope="catch_up"\} [1-9]/);
  });

  it('fails only the lookup of a key the store cannot hold, not the others read with it', async () => {
    const reads = Array.from({ length: 60 }, (_, i) => (i === 30 ? svc.store.getCompany(P, NUL_ID) : svc.store.getCompany(P, C)));
    const settled = await Promise.allSettled(reads);
    settled.forEach((s, i) => {
      if (i === 30) return;
      expect(s.status, String(i)).toBe('fulfilled');
      expect((s as PromiseFulfilledResult<unknown>).value).toBeDefined();
    });
    const alone = settled[30]!;
    // SQLite holds the key and finds nothing; PostgreSQL refuses it.
    expect(alone.status === 'rejected' || (alone as PromiseFulfilledResult<unknown>).value === undefined).toBe(true);
  });

  it('rejects an imported line whose keys hold NUL, with a reason, and stores the lines around it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'crs-nul-'));
    const store = await openTestStore(dir);
    try {
      const file = join(dir, 'in.ndjson');
      const bad = executionLine(P, C, 3).replace(/exec-0003/g, 'exec-\\u0000-3');
      const badScenario = executionLine(P, C, 4).replace(/"scenario-1"/g, '"scen\\ud800"');
      writeFileSync(file, [companyLine(P, C, DOC), executionLine(P, C, 1), bad, badScenario, executionLine(P, C, 2)].join('\n') + '\n');
      const summary = await importFiles(store.store, [file]);
      expect(summary).toMatchObject({ stored: 3, rejected: 2 });
      const page = await store.store.listExecutions(P, C, { order: 'asc' }, undefined, 10);
      expect(page.map((e) => e.executionId)).toEqual(['exec-0001', 'exec-0002']);
    } finally {
      await store.store.close();
      await store.cleanup();
    }
  });

  it('copies from SQLite an access log entry and an execution an older version stored with NUL', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'crs-nul-copy-'));
    const source = await openSqliteStore(join(dir, 'source.db'));
    const target = await openTestStore();
    try {
      const file = join(dir, 'in.ndjson');
      writeFileSync(file, [companyLine(P, C, DOC), executionLine(P, C, 1), executionLine(P, C, 2)].join('\n') + '\n');
      await importFiles(source, [file]);
      // Rewrite one execution as an older version could store it: NUL in its id and a scenario id.
      const rows: StoreRow[] = [];
      for await (const chunk of source.exportRows(100)) rows.push(...chunk);
      const exec = rows.find((r): r is ExecutionUpsert => r.kind === 'execution' && r.executionId === 'exec-0002')!;
      await source.importRows([{ ...exec, key: 'exec-\u0000-2', executionId: 'exec-\u0000-2', scenarioIds: ['scen\u0000'] }]);
      await source.appendAccessLog([
        {
          project: P,
          firstAt: '2026-03-01T10:00:00.000Z',
          lastAt: '2026-03-01T10:00:00.000Z',
          entries: JSON.stringify([['2026-03-01T10:00:00.000Z', null, '/v1/companies/:id/details', NUL_ID, 401, 'req\ud800', '127.0.0.1']]),
          records: JSON.stringify([NUL_ID]),
        },
      ]);
      const rewritten: string[] = [];
      const counts = await copyStore(source, target.store, { onRewritten: (row) => rewritten.push(row) });
      expect(counts).toMatchObject({ customers: 1, executions: 3, accessLogBatches: 1 });
      expect(rewritten).toHaveLength(2);
      expect(await target.store.queryAccessLog({ project: P, recordId: LOGGED_ID, limit: 10 })).toEqual([
        expect.objectContaining({ recordId: LOGGED_ID, requestId: 'req\uFFFD', status: 401 }),
      ]);
      const page = await target.store.listExecutions(P, C, { order: 'asc' }, undefined, 10);
      expect(page.map((e) => e.executionId).sort()).toEqual(['exec-0001', 'exec-0002', 'exec-\uFFFD-2']);
      expect(await target.store.listExecutions(P, C, { order: 'asc', scenarioId: 'scen\uFFFD' }, undefined, 10)).toHaveLength(1);
    } finally {
      await source.close();
      await target.store.close();
      await target.cleanup();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
