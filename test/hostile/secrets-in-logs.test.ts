/** Secrets a client puts in a URL (an API key, a file URL's signature) never reach the service log. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.js';
import { createApiKey } from '../../src/store/api-keys.js';
import { createLogger } from '../../src/app/logger.js';
import { startService, type Service } from '../../src/app/service.js';
import { importFiles } from '../../src/ingest/importer.js';
import { companyLine } from '../support/records.js';
import { openTestStore, type TestStore } from '../support/store-harness.js';

const P = 'proj-logs';
const COMPANY = '0b5c2a4e-3d1f-4a6b-9c8d-7e6f5a4b3c2d';
const FILE = 'f1e2d3c4-b5a6-4978-8a9b-0c1d2e3f4a5b';
let ts: TestStore;
let svc: Service;
let key: string;
const lines: string[] = [];

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'crs-logs-'));
  ts = await openTestStore(dir);
  writeFileSync(join(dir, 'in.ndjson'), `${companyLine(P, COMPANY, FILE)}\n`);
  await importFiles(ts.store, [join(dir, 'in.ndjson')]);
  key = (await createApiKey(ts.store, { project: P })).key;
  const config = loadConfig({}, { DATABASE_URL: ts.url, FILES_DIR: join(dir, 'files'), HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'trace' });
  svc = await startService(config, { logger: createLogger(config, { write: (line: string) => void lines.push(line) }) });
});
afterAll(async () => {
  await svc?.close();
  await ts?.store.close();
  await ts?.cleanup();
});

/** Everything logged while `fn` ran. */
async function logged(fn: () => Promise<unknown>): Promise<string> {
  const from = lines.length;
  await fn();
  await new Promise((r) => setTimeout(r, 100)); // "request completed" can follow the response
  return lines.slice(from).join('');
}

describe('secrets in request URLs', () => {
  it('never writes an API key sent in the query string, under any parameter name or encoding', async () => {
    const secret = key.slice(-43);
    const text = await logged(async () => {
      for (const query of [`api_key=${key}`, `key=${key}`, `x=${key}`, `apiKey=${key.replace(/_/g, '%5F')}`, `token=${secret}`]) {
        await fetch(`${svc.url}/v1/companies/${COMPANY}/details?${query}`);
        await fetch(`${svc.url}/v1/no-such-route?${query}`); // a 404 names the URL in its message
      }
      await fetch(`${svc.url}/v1/companies/${key}/details`); // even in the path
    });
    expect(text).toContain('/details?'); // the requests were logged
    expect(text).not.toContain(secret);
    expect(text).not.toContain(secret.slice(0, 20));
  });

  it('never writes the signature of a file URL', async () => {
    const sig = 'Zm9vYmFyYmF6cXV4cXV1eGNvcmdlZ3JhdWx0Z2FycGx5';
    const text = await logged(() => fetch(`${svc.url}/v1/files/${FILE}?expires=4102444800&sig=${sig}`));
    expect(text).toContain('expires=4102444800');
    expect(text).not.toContain(sig);
  });

  it('never writes a value of a parameter named like a secret', async () => {
    const text = await logged(async () => {
      for (const name of ['password', 'access_token', 'client_secret', 'X-Amz-Signature', 'auth']) {
        await fetch(`${svc.url}/v1/companies/${COMPANY}/details?${name}=hunter2-${name}&limit=1`);
      }
    });
    expect(text).toContain('limit=1');
    expect(text).not.toContain('hunter2');
  });
});
