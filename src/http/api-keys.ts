/** API keys: minted once, stored as hashes only, each bound to one project and a set of scopes. */
import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { ApiKeyRecord, Store } from '../store/store.js';

/** The scopes a key may carry, one per read operation. */
export const SCOPES = ['companies:read', 'executions:read', 'alerts:read'] as const;
export type Scope = (typeof SCOPES)[number];

const KEY_FORMAT = /^crs_([a-z0-9]{12})_([A-Za-z0-9_-]{43})$/;

/** The stored hash of a presented key. */
export function hashKey(key: string): string {
  // The one-shot form: a third of createHash's cost, and this runs on every request.
  return hash('sha256', key, 'hex');
}

/** Options for minting a key. */
export interface NewKey {
  project: string;
  name?: string;
  scopes?: readonly Scope[];
  expiresAt?: string;
}

/** Mints a key, stores its hash and returns the only copy of the secret with its record. */
export async function createApiKey(store: Store, opts: NewKey, now = new Date()): Promise<{ key: string; record: ApiKeyRecord }> {
  if (opts.project.length === 0) throw new Error('a key needs a project');
  const scopes = [...new Set(opts.scopes ?? SCOPES)];
  for (const s of scopes) if (!(SCOPES as readonly string[]).includes(s)) throw new Error(`unknown scope ${s}; scopes are ${SCOPES.join(', ')}`);
  const id = randomBytes(9).toString('base64url').toLowerCase().replace(/[^a-z0-9]/g, '0').slice(0, 12).padEnd(12, '0');
  const key = `crs_${id}_${randomBytes(32).toString('base64url')}`;
  const record: ApiKeyRecord = {
    id,
    project: opts.project,
    name: opts.name ?? null,
    scopes,
    hash: hashKey(key),
    createdAt: now.toISOString(),
    expiresAt: opts.expiresAt ?? null,
    revokedAt: null,
  };
  await store.insertApiKey(record);
  return { key, record };
}

/** Why a presented key was refused. */
export type KeyRefusal = 'malformed' | 'unknown' | 'revoked' | 'expired';

/** A verdict on a presented key; a revoked or expired key is still named, so its refusals are attributed to its project. */
export type KeyVerdict = { ok: true; key: ApiKeyRecord } | { ok: false; reason: KeyRefusal; key?: ApiKeyRecord };

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

/** Looks a presented key up; revoked and expired keys are refused on the very next request. */
export async function verifyApiKey(
  store: Store,
  presented: string,
  now = Date.now(),
): Promise<KeyVerdict> {
  if (!KEY_FORMAT.test(presented)) return { ok: false, reason: 'malformed' };
  const hash = hashKey(presented);
  const key = await store.findApiKeyByHash(hash);
  // The lookup is by hash; comparing the hashes again in constant time keeps timing flat.
  if (key === undefined || !timingSafeEqual(Buffer.from(key.hash, 'hex'), Buffer.from(hash, 'hex'))) {
    return { ok: false, reason: 'unknown' };
  }
  if (key.revokedAt !== null) return { ok: false, reason: 'revoked', key };
  if (key.expiresAt !== null && Date.parse(key.expiresAt) <= now) return { ok: false, reason: 'expired', key };
  return { ok: true, key };
}
