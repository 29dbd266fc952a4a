/**
 * A store that fails under a running service: a damaged SQLite file, or a PostgreSQL pool that has
 * been stopped. Every read answers 503 `unavailable` with the contract's error body, never 500.
 */
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordKey } from '../../src/contract/record-key.js';
import { StoreUnavailableError } from '../../src/store/store-errors.js';
import { damageSqliteFile } from '../support/damaged-sqlite.js';
import { alertLine, companyLine, executionLine } from '../support/records.js';
import { storeUnderTest } from '../support/stores.js';
import { startTestService, type TestService } from '../support/test-service.js';

const P = 'proj-a';
const COMPANY = '0b5c2a4e-3d1f-4a6b-9c8d-7e6f5a4b3c2d';
const ALERT = 'aa5c2a4e-3d1f-4a6b-9c8d-7e6f5a4b3c2d';
const FILE_KEY = 'f1e2d3c4-b5a6-4978-8a9b-0c1d2e3f4a5b';
const PATHS = [`/v1/companies/${COMPANY}/details`, `/v1/alerts/${ALERT}`, `/v1/customers/${COMPANY}/scenario-executions`];
const ENCODINGS = ['identity', 'gzip', 'br'];

let svc: TestService;
let key: string;
const logged: Record<string, unknown>[] = [];

beforeAll(async () => {
  svc = await startTestService([companyLine(P, COMPANY, FILE_KEY), alertLine(P, ALERT, COMPANY, FILE_KEY), ...Array.from({ length: 5 }, (_, i) => executionLine(P, COMPANY, i))], {
    accessLog: false,
    // pino writes each line to any object with a write method.
    logger: pino({ level: 'info' }, { write: (line: string) => void logged.push(JSON.parse(line) as Record<string, unknown>) }),
  });
  key = (await svc.key(P)).key;
});
afterAll(async () => svc?.close());

const get = (path: string, encoding: string): Promise<Response> =>
  fetch(`${svc.url}${path}`, { headers: { authorization: `Bearer ${key}`, 'accept-encoding': encoding } });

describe('a store failing under a running service', () => {
  it('answers every read 503 unavailable with the contract error body, not 500', async () => {
    for (const path of PATHS) expect((await get(path, 'identity')).status).toBe(200);

    if (storeUnderTest() === 'sqlite') damageSqliteFile(svc.dbUrl);
    else await svc.store.close();

    // Each read of the store itself, not only the key check before it, fails as unavailable.
    const reads = [
      () => svc.store.getCompany(P, recordKey(COMPANY)),
      () => svc.store.getAlert(P, recordKey(ALERT)),
      () => svc.store.customerKnown(P, recordKey(COMPANY)),
      () => svc.store.listExecutions(P, recordKey(COMPANY), { order: 'desc' }, undefined, 10),
    ];
    for (const read of reads) await expect(read()).rejects.toBeInstanceOf(StoreUnavailableError);
    for (const path of PATHS) {
      for (const encoding of ENCODINGS) {
        const res = await get(path, encoding);
        expect({ path, encoding, status: res.status, retryAfter: res.headers.get('retry-after'), body: await res.json() }).toEqual({
          path,
          encoding,
          status: 503,
          retryAfter: '1',
          body: { message: 'the store is unavailable; retry later', code: 'unavailable', issues: [] },
        });
      }
    }
    // Each 503 is one short line, without the error's stack; none is logged as a failed request.
    await new Promise((r) => setImmediate(r));
    const outage = logged.filter((l) => l.msg === 'answered 503: the store is unavailable');
    expect(outage).toHaveLength(PATHS.length * ENCODINGS.length);
    for (const line of outage) expect(line.err).toBeUndefined();
    expect(logged.filter((l) => l.msg === 'request failed')).toEqual([]);
  });
});
