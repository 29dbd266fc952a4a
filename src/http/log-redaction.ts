/** Secrets that may reach a log line inside a URL or a message, removed from the written line. */
import { looksSecret } from '../config/secret-names.js';

/** What replaces a secret in a log line. */
export const REDACTED = '[redacted]';

/** One character as itself or percent-encoded, once or more (`_`, `%5F`, `%255F`, ...). */
const spelt = (char: string, hex: string): string => `(?:${char}|%(?:25)*${hex})`;
const ENCODED = /%(?:25)*([0-9a-f]{2})/gi;

// An API key (KEY_FORMAT, src/store/api-keys.ts), any of its characters percent-encoded (once or
// more), or cut short; its id (not a secret: `keys list` shows it) is kept so a leaked key can be
// found and revoked.
const API_KEY_TEXT = new RegExp(
  `${spelt('c', '63')}${spelt('r', '72')}${spelt('s', '73')}${spelt('_', '5f')}((?:[a-z0-9]|%(?:25)*[0-9a-f]{2}){12})${spelt('_', '5f')}[A-Za-z0-9_%-]+`,
  'gi',
);

/** `text` with every API key in it cut to its id (a key named where a log keeps what the client sent: a record id, a request id). */
export function redactApiKeys(text: string): string {
  return text.replace(API_KEY_TEXT, (_whole, id: string) => `crs_${id.replace(ENCODED, (_e, hex: string) => String.fromCharCode(parseInt(hex, 16)))}_${REDACTED}`);
}

// A query parameter inside JSON text: a value ends at a separator, a quote or white space, and a
// JSON escape (`\"`) is taken whole so a quote in the URL cannot end the value early.
const QUERY_PARAM = /([?&;])([^=&;?#"\s\\]*)=((?:\\.|[^&;#"\s\\])*)/g;

/**
 * A serialized log line with every API key and every value of a secret-looking query parameter
 * (`api_key`, `key`, `token`, `sig`, `X-Amz-Signature`, ...) replaced, wherever in the line it is.
 */
export function redactLogLine(line: string): string {
  return redactApiKeys(line).replace(QUERY_PARAM, (whole, sep: string, name: string) => (looksSecret(name) ? `${sep}${name}=${REDACTED}` : whole));
}
