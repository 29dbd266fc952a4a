/**
 * POST /v1/records against two `serve` processes sharing the project's store: concurrent pushes of
 * overlapping, shuffled envelopes through both leave each record once at its newest version
 * (PostgreSQL serializes the writers per project; SQLite's writers wait their turn on the file's lock).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/client.js';
import { createApiKey } from '../../src/store/api-keys.js';
import { startServeProcess, type ServeProcess } from '../support/cli-process.js';
import { versionedEnvelopes, versionProblems } from '../support/ingest-records.js';
import { openTestStore, type TestStore } from '../support/store-harness.js';

const P = 'push-processes';
let db: TestStore;
let key: string;
const services: ServeProcess[] = [];

beforeAll(async () => {
  db = await openTestStore(mkdtempSync(join(tmpdir(), 'crs-push-procs-')));
  key = (await createApiKey(db.store, { project: P, scopes: ['records:write'] })).key;
  const env = { DATABASE_URL: db.url, ACCESS_LOG: 'on', FILES_DIR: join(mkdtempSync(join(tmpdir(), 'crs-push-files-')), 'files') };
  services.push(...(await Promise.all([startServeProcess(env, 60_000), startServeProcess(env, 60_000)])));
});
afterAll(async () => {
  for (const s of services) {
    s.child.kill('SIGTERM');
    await s.exited;
  }
  await db?.store.close();
  await db?.cleanup();
});

describe('push records to several service processes on one store', () => {
  it('keeps each record once at its newest version when both processes take overlapping pushes at once', async () => {
    const env = versionedEnvelopes(P, 1500, 11);
    const chunk = 150;
    const results = await Promise.all(
      [0, 1, 2, 3].map(async (c) => {
        const client = createClient({ baseUrl: `${services[c % 2]!.url}/v1`, apiKey: key });
        const start = Math.floor((env.lines.length * c) / 4);
        const mine = [...env.lines.slice(start), ...env.lines.slice(0, start)];
        let rejected = 0;
        for (let i = 0; i < mine.length; i += chunk) rejected += (await client.pushRecords(mine.slice(i, i + chunk).join('\n'))).rejected;
        return rejected;
      }),
    );
    expect(results).toEqual([0, 0, 0, 0]);
    expect(await versionProblems(db.store, P, env)).toEqual([]);
  }, 120_000);
});
