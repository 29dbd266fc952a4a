/**
 * The package as built (scripts/bundle.ts): the bundled command line imports through its thread
 * and a prepare worker, serves records, search and the API reference, and the bundled client reads
 * from it. A package that finds its own files beside its modules breaks only here, not in the
 * tests of the sources.
 */
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleClient, bundleCli } from '../../scripts/bundle.js';
import { runCli, startServeProcess } from '../support/cli-process.js';
import { alertLine, companyLine, executionLine } from '../support/records.js';

const ROOT = join(import.meta.dirname, '..', '..');
// Inside the checkout, so the packages left out of the bundle resolve from its node_modules.
const dir = join(ROOT, '.tmp', `bundle-${process.pid}`);
const MAIN = join(dir, 'dist', 'cli', 'main.js');
const P = 'proj-bundle';
const C = '5d7e1c2a-8b3f-4c6d-9e0a-1b2c3d4e5f60';
const A = '6e8f2d3b-9c4a-4d7e-8f1b-2c3d4e5f6a71';
const F = '7f9a3e4c-0d5b-4e8f-9a2c-3d4e5f6a7b82';

const cli = (args: string[]): string => runCli(args, { HOME: dir }, [MAIN]);

beforeAll(async () => {
  mkdirSync(dir, { recursive: true });
  cpSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
  await bundleCli(ROOT, dir);
  await bundleClient(ROOT, dir);
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the bundled package', () => {
  it('imports with a prepare worker, serves a record, a list, a search and the API reference, and its client reads them', async () => {
    const db = join(dir, 'store.db');
    const file = join(dir, 'records.ndjson');
    writeFileSync(file, `${[companyLine(P, C, F), alertLine(P, A, C, F), executionLine(P, C, 1), executionLine(P, C, 2)].join('\n')}\n`);
    expect(JSON.parse(cli(['import', file, '--db', db, '--workers', '1', '--json']).trim().split('\n').at(-1)!)).toMatchObject({ read: 4, stored: 4, rejected: 0 });
    const key = cli(['keys', 'create', '--project', P, '--db', db]).trim().split('\n').at(-1)!;

    const serve = await startServeProcess({ DATABASE_URL: db, HOME: dir }, 30_000, [MAIN]);
    try {
      const base = serve.url;
      const auth = { authorization: `Bearer ${key}` };
      const company = await fetch(`${base}/v1/companies/${C}/details`, { headers: auth });
      expect(company.status).toBe(200);
      expect(((await company.json()) as { id: string }).id).toBe(C);
      const list = await fetch(`${base}/v1/companies?limit=5`, { headers: auth });
      expect(((await list.json()) as { id: string }[]).map((s) => s.id)).toEqual([C]);
      const search = await fetch(`${base}/v1/companies?limit=5&q=nowhere`, { headers: auth });
      expect(search.status).toBe(200);
      expect(await search.json()).toEqual([]);
      // Swagger UI's page and scripts come from its own package folder, which the bundle leaves in place.
      const docs = await fetch(`${base}/docs/static/swagger-ui-bundle.js`);
      expect(docs.status).toBe(200);
      expect((await docs.text()).length).toBeGreaterThan(100_000);

      const { createClient } = (await import(pathToFileURL(join(dir, 'dist', 'client', 'client.js')).href)) as typeof import('../../src/client/client.js');
      const client = createClient({ baseUrl: `${base}/v1`, apiKey: key });
      expect((await client.getAlert(A)).id).toBe(A);
      const executions = [];
      for await (const e of client.iterateScenarioExecutions(C)) executions.push(e);
      expect(executions).toHaveLength(2);
    } finally {
      serve.child.kill('SIGTERM');
      await serve.exited;
    }
  }, 60_000);
});
