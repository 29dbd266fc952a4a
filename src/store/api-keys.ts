/** API keys: minted once, stored as hashes only, each bound to one project and a set of scopes; a presented key looked up. */
import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { ApiKeyRecord, Store } from './store.js';

/**
 * The scopes a key may carry: one per kind of record read, the change feed, erasing a customer,
 * pushing records, and one per class of field a read shows (src/contract/field-classes.ts:
 * without it, the class's values are masked).
 */
export const SCOPES = [
  'companies:read',
  'executions:read',
  'alerts:read',
  'changes:read',
  'records:erase',
  'records:write',
  'pii:read',
  'documents:read',
  'screening:read',
] as const;
export type Scope = (typeof SCOPES)[number];

/** The scopes of a key minted without a choice: every read with every field, never erasure nor writing, which are given only by name. */
export const DEFAULT_SCOPES: readonly Scope[] = ['companies:read', 'executions:read', 'alerts:read', 'changes:read', 'pii:read', 'documents:read', 'screening:read'];

/** The shape of every key minted: a prefix, the key's id, then its secret. */
export const KEY_FORMAT = /^crs_([a-z0-9]{12})_([A-Za-z0-9_-]{43})$/;

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
  const scopes = [...new Set(opts.scopes ?? DEFAULT_SCOPES)];
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
