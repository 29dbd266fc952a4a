/** A key revoked by another process (the CLI) is refused on the service's next request, cache or not. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli-process.js';
import { alertLine } from '../support/records.js';
import { startTestService, type TestService } from '../support/test-service.js';

const P = 'proj-r';
const ALERT = 'aa5c2a4e-3d1f-4a6b-9c8d-7e6f5a4b3c2d';
let svc: TestService;
beforeAll(async () => {
  svc = await startTestService([alertLine(P, ALERT, '0b5c2a4e-3d1f-4a6b-9c8d-7e6f5a4b3c2d', 'e1e2d3c4-b5a6-4978-8a9b-0c1d2e3f4a5b')]);
});
afterAll(async () => svc?.close());

const status = async (key: string): Promise<number> => {
  const res = await fetch(`${svc.url}/v1/alerts/${ALERT}`, { headers: { authorization: `Bearer ${key}` } });
  await res.arrayBuffer();
  return res.status;
};

describe('key revocation across processes', () => {
  it('refuses a key revoked through the CLI on the next request', async () => {
    const { key, id } = await svc.key(P);
    // Warm: the key is now verified and kept in memory.
    expect(await status(key)).toBe(200);
    expect(await status(key)).toBe(200);
    runCli(['keys', 'revoke', id, '--db', svc.dbUrl]);
    // PostgreSQL tells replicas through NOTIFY; allow the notification a moment to arrive.
    let seen = await status(key);
    for (let i = 0; i < 20 && seen === 200; i++) {
      await new Promise((r) => setTimeout(r, 25));
      seen = await status(key);
    }
    expect(seen).toBe(401);
  });
});
