import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../store/sqlite/sqlite-store.js';
import type { Store } from '../store/store.js';
import { healthRoutes, READY_REUSE_MS } from './health.js';

describe('/readyz under a burst', () => {
  let dir: string;
  let store: Store;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'crs-readyz-'));
    store = await openSqliteStore(join(dir, 'store.db'));
  });
  afterAll(async () => {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('asks the store once for probes that arrive together, and again once the answer is old', async () => {
    let pings = 0;
    const app = Fastify();
    app.register(healthRoutes({ ping: () => (pings++, store.ping()) }));
    const url = await app.listen({ host: '127.0.0.1', port: 0 });
    try {
      const burst = await Promise.all(Array.from({ length: 40 }, () => fetch(`${url}/readyz`)));
      expect(burst.map((r) => r.status)).toEqual(Array(40).fill(200));
      expect(pings).toBe(1);
      await new Promise((r) => setTimeout(r, READY_REUSE_MS + 100));
      expect((await fetch(`${url}/readyz`)).status).toBe(200);
      expect(pings).toBe(2);
    } finally {
      await app.close();
    }
  });
});
