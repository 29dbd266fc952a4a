/** Secrets that may reach a log line inside a URL or a message, removed from the written line. */
import { looksSecret } from '../config/secret-names.js';

/** What replaces a secret in a log line. */
export const REDACTED = '[redacted]';

// An API key (KEY_FORMAT, src/store/api-keys.ts), also with its underscores percent-encoded, or cut short;
// its id (not a secret: `keys list` shows it) is kept so a leaked key can be found and revoked.
const API_KEY_TEXT = /crs(?:_|%5[Ff])([a-z0-9]{12})(?:_|%5[Ff])[A-Za-z0-9_%-]+/g;

// A query parameter inside JSON text: a value ends at a separator, a quote or white space, and a
// JSON escape (`\"`) is taken whole so a quote in the URL cannot end the value early.
const QUERY_PARAM = /([?&;])([^=&;?#"\s\\]*)=((?:\\.|[^&;#"\s\\])*)/g;

/**
 * A serialized log line with every API key and every value of a secret-looking query parameter
 * (`api_key`, `key`, `token`, `sig`, `X-Amz-Signature`, ...) replaced, wherever in the line it is.
 */
export function redactLogLine(line: string): string {
  return line
    .replace(API_KEY_TEXT, (_whole, id: string) => `crs_${id}_${REDACTED}`)
    .replace(QUERY_PARAM, (whole, sep: string, name: string) => (looksSecret(name) ? `${sep}${name}=${REDACTED}` : whole));
}
