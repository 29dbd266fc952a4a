/** Opening the store a setting names: a failure says which setting to fix. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from './open-store.js';
import { StoreUnavailableError } from './store-errors.js';

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('openStore failures', () => {
  it('names DATABASE_URL and --db, never the URL, when the PostgreSQL server does not answer', async () => {
    const url = `postgres://app:hunter2@127.0.0.1:${await closedPort()}/db`;
    const err = (await openStore(url).then(
      () => expect.unreachable(),
      (e: unknown) => e,
    )) as Error;
    expect(err).toBeInstanceOf(StoreUnavailableError);
    expect(err.message).toMatch(/^DATABASE_URL \(--db\): PostgreSQL store unavailable during open \(ECONNREFUSED\)$/);
    expect(err.message).not.toContain('hunter2');
  });

  it('names the flag that named the store when the caller gives one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'crs-open-store-'));
    try {
      writeFileSync(join(dir, 'not-a-store.db'), 'plain text, not SQLite');
      await expect(openStore(join(dir, 'not-a-store.db'), { source: '--to' })).rejects.toThrow(/^--to: /);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
