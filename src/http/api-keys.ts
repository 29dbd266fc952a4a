/** The serving side of API keys: presented keys verified, valid ones kept in memory. */
import { LRUCache } from 'lru-cache';
import { hashKey, KEY_FORMAT, verifyApiKey, type KeyVerdict } from '../store/api-keys.js';
import type { ApiKeyRecord, Store } from '../store/store.js';

/**
 * Verifies presented keys, keeping valid ones in memory while the store's key generation stays
 * the same: a revoke anywhere changes the generation, so it still takes effect on the next request.
 */
export class ApiKeyVerifier {
  private readonly cache: LRUCache<string, { key: ApiKeyRecord; generation: string | number }>;

  constructor(
    private readonly store: Store,
    maxCached = 10_000,
  ) {
    this.cache = new LRUCache({ max: maxCached });
  }

  /** As verifyApiKey, answered from memory when nothing about keys has changed. */
  async verify(presented: string, now = Date.now()): Promise<KeyVerdict> {
    if (!KEY_FORMAT.test(presented)) return { ok: false, reason: 'malformed' };
    const generation = this.store.apiKeysGeneration();
    const hash = hashKey(presented);
    const hit = this.cache.get(hash);
    if (hit !== undefined && generation !== null && hit.generation === generation) {
      if (hit.key.expiresAt !== null && Date.parse(hit.key.expiresAt) <= now) return { ok: false, reason: 'expired', key: hit.key };
      return { ok: true, key: hit.key };
    }
    const verdict = await verifyApiKey(this.store, presented, now);
    // Only keys that passed are kept: unknown keys must not fill the memory.
    if (verdict.ok && generation !== null) {
      this.cache.set(hash, { key: verdict.key, generation });
    } else {
      this.cache.delete(hash);
    }
    return verdict;
  }
}
