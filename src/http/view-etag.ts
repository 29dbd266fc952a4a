/** The ETag a record is served under to a key that is not shown some of its fields. */
import { createHmac } from 'node:crypto';
import type { View } from '../wire/redaction.js';

/**
 * `etag` (a hash of the stored bytes) as a redacted view names it: keyed by the service's secret,
 * so a reader cannot hash guesses of the masked values and compare them with what it was sent.
 * The view's tag stays readable: answers of different views never share a tag.
 */
export function viewEtag(secret: Buffer, etag: string, view: View | undefined): string {
  if (view === undefined) return etag;
  const keyed = createHmac('sha256', secret).update(etag).update('\n').update(view.tag).digest('base64url').slice(0, 27);
  return `${keyed}.${view.tag}`;
}
