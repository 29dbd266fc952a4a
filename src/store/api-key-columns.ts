/** The api_keys table's columns, identical in both dialects (scopes as JSON text). */
import type { ApiKeyRecord } from './store.js';

/** One api_keys row as the drivers return it. */
export interface ApiKeyColumns {
  id: string;
  project: string;
  name: string | null;
  scopes: string;
  hash: string;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
}

/** The record of an api_keys row. */
export function apiKeyFromRow(r: ApiKeyColumns): ApiKeyRecord {
  return {
    id: r.id,
    project: r.project,
    name: r.name,
    scopes: JSON.parse(r.scopes) as string[],
    hash: r.hash,
    createdAt: r.created_at,
    expiresAt: r.expires_at,
    revokedAt: r.revoked_at,
  };
}

/** The column values of a key, in the order of API_KEY_COLUMNS. */
export function apiKeyValues(k: ApiKeyRecord): unknown[] {
  return [k.id, k.project, k.name, JSON.stringify(k.scopes), k.hash, k.createdAt, k.expiresAt, k.revokedAt];
}

/** Column list of an api_keys insert. */
export const API_KEY_COLUMNS = 'id, project, name, scopes, hash, created_at, expires_at, revoked_at';
