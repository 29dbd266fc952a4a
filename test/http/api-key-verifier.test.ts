/** The key verifier keeps valid keys in memory only while the store's key generation holds. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeyVerifier } from '../../src/http/api-keys.js';
import { createApiKey } from '../../src/store/api-keys.js';
import type { Store } from '../../src/store/store.js';
import { openTestStore, type TestStore } from '../support/store-harness.js';

let ts: TestStore;
let lookups = 0;
let counted: Store;
beforeAll(async () => {
  ts = await openTestStore();
  // Counts lookups that reach the store; everything else passes through.
  counted = new Proxy(ts.store, {
    get(target, prop) {
      const v = Reflect.get(target, prop, target) as unknown;
      if (prop === 'findApiKeyByHash') return (hash: string) => (lookups++, target.findApiKeyByHash(hash));
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
});
afterAll(async () => {
  await ts?.store.close();
  await ts?.cleanup();
});

describe('ApiKeyVerifier', () => {
  it('answers a known key from memory, and looks again once keys change', async () => {
    const { key, record } = await createApiKey(ts.store, { project: 'p' });
    const verifier = new ApiKeyVerifier(counted);
    // PostgreSQL vouches for its generation once its LISTEN connection is up.
    for (let i = 0; i < 100 && ts.store.apiKeysGeneration() === null; i++) await new Promise((r) => setTimeout(r, 20));
    expect(ts.store.apiKeysGeneration()).not.toBeNull();
    lookups = 0;
    expect((await verifier.verify(key)).ok).toBe(true);
    expect((await verifier.verify(key)).ok).toBe(true);
    expect((await verifier.verify(key)).ok).toBe(true);
    expect(lookups).toBe(1);
    await ts.store.revokeApiKey(record.id, new Date().toISOString());
    expect(await verifier.verify(key)).toMatchObject({ ok: false, reason: 'revoked' });
    expect(lookups).toBe(2);
  });

  it('never keeps an unknown key', async () => {
    const verifier = new ApiKeyVerifier(counted);
    lookups = 0;
    const unknown = `crs_aaaaaaaaaaaa_${'A'.repeat(43)}`;
    await verifier.verify(unknown);
    await verifier.verify(unknown);
    expect(lookups).toBe(2);
  });
});
