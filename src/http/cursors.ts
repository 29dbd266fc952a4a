/** Opaque page cursors: the keyset position, bound by HMAC to the query that produced it. */
import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * A keyset position as a cursor holds it: the sort value, then the key breaking its ties (for the
 * change feed: the writing transaction, then the sequence). Each route maps it to its store's position.
 */
export type CursorPosition = readonly [sort: string, key: string];

/** Encodes a position for the query identified by `queryId`. */
export function encodeCursor(secret: Buffer, queryId: string, pos: CursorPosition): string {
  const payload = Buffer.from(JSON.stringify(pos), 'utf8').toString('base64url');
  return `${payload}.${sign(secret, queryId, payload)}`;
}

/** Decodes a cursor; undefined when it was tampered with or issued for another query. */
export function decodeCursor(secret: Buffer, queryId: string, cursor: string): CursorPosition | undefined {
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
    const parsed = JSON.parse(bytes.toString('utf8')) as unknown;
    if (!Array.isArray(parsed) || parsed.length !== 2) return undefined;
    const [sort, key] = parsed as unknown[];
    if (typeof sort !== 'string' || typeof key !== 'string') return undefined;
    return [sort, key];
  } catch {
    return undefined;
  }
}

function sign(secret: Buffer, queryId: string, payload: string): string {
  return createHmac('sha256', secret).update('cursor\n').update(queryId).update('\n').update(payload).digest('base64url');
}
