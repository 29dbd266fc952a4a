/** Opaque page cursors: the keyset position, bound by HMAC to the query that produced it. */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ExecutionPosition } from '../store/store.js';

/** Encodes a position for the query identified by `queryId`. */
export function encodeCursor(secret: Buffer, queryId: string, pos: ExecutionPosition): string {
  const payload = Buffer.from(JSON.stringify([pos.sortKey, pos.executionId]), 'utf8').toString('base64url');
  return `${payload}.${sign(secret, queryId, payload)}`;
}

/** Decodes a cursor; undefined when it was tampered with or issued for another query. */
export function decodeCursor(secret: Buffer, queryId: string, cursor: string): ExecutionPosition | undefined {
  const dot = cursor.indexOf('.');
  if (dot <= 0 || cursor.length > 4096) return undefined;
  const payload = cursor.slice(0, dot);
  // Compare the canonical encodings: decoding the given signature first would accept variants of
  // it ('=' padding, '+' and '/', other spare bits in its last character).
  const given = Buffer.from(cursor.slice(dot + 1), 'utf8');
  const expected = Buffer.from(sign(secret, queryId, payload), 'utf8');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  const bytes = Buffer.from(payload, 'base64url');
  // Only the spelling the service issues: a payload decoding the same from other text is not it.
  if (bytes.toString('base64url') !== payload) return undefined;
  try {
    const [sortKey, executionId] = JSON.parse(bytes.toString('utf8')) as unknown[];
    if (typeof sortKey !== 'string' || typeof executionId !== 'string') return undefined;
    return { sortKey, executionId };
  } catch {
    return undefined;
  }
}

function sign(secret: Buffer, queryId: string, payload: string): string {
  return createHmac('sha256', secret).update('cursor\n').update(queryId).update('\n').update(payload).digest('base64url');
}
