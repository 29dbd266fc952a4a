import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../../src/contract/operations.js';
import { startTestServer, type TestServer } from '../../support/openapi-server.js';

const CHROMIUM = '/usr/bin/chromium';
const exists = existsSync(CHROMIUM);
const inCi = process.env.CI !== undefined && process.env.CI !== '';
const run = promisify(execFile);

if (!exists && !inCi) {
  console.warn(`docs-page.browser.test: SKIPPED, ${CHROMIUM} is not installed (apt-get install chromium to run it)`);
}

let server: TestServer | undefined;

beforeAll(async () => {
  if (exists) server = await startTestServer();
});

afterAll(async () => {
  await server?.close();
});

/** The DOM of `url` after its scripts ran, as headless Chromium serialises it. */
async function renderedDom(url: string): Promise<string> {
  const profile = await mkdtemp(join(tmpdir(), 'chromium-profile-'));
  try {
    const { stdout } = await run(
      CHROMIUM,
      [
        '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
        '--disable-background-networking', '--disable-component-update', '--disable-sync',
        `--user-data-dir=${profile}`,
        // Every host but the test server is unresolvable: the page renders only if all it needs is local.
        '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
        // Swagger UI renders client-side; virtual time lets it finish before the dump.
        '--virtual-time-budget=10000',
        '--dump-dom', url,
      ],
      { timeout: 60_000, maxBuffer: 64 * 1024 * 1024 },
    );
    return stdout;
  } finally {
    await rm(profile, { recursive: true, force: true });
  }
}

describe('the /docs page in a browser', () => {
  // CI installs Chromium, so a missing browser there is a broken setup, not a reason to skip.
  it.runIf(!exists && inCi)('has Chromium to render with (CI)', () => {
    expect.fail(`${CHROMIUM} is missing on CI`);
  });

  it.skipIf(!exists)('renders every operation, the authorize button and the schemas from local assets only', async () => {
    const dom = (await renderedDom(`${server!.origin}/docs`)).replace(/&#39;|&apos;/g, "'");
    expect(dom).toContain('Customer Compliance Read Service');
    for (const op of Object.values(OPERATIONS)) {
      expect(dom, op.summary).toContain(op.summary);
      expect(dom, op.operationId).toContain(op.operationId);
    }
    expect(dom).toContain('Download a document file');
    expect(dom).toContain('Authorize');
    expect(dom).toContain('CompanyDetails');
    expect(dom).not.toContain('Failed to load API definition');
  });
});
