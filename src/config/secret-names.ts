/** Which names of query parameters (in connection URLs, request URLs) carry secrets. */

// Broad on purpose: masking a harmless value costs nothing, printing a password costs much.
const SECRET_NAME = /key|token|secret|pass|pwd|sig|auth|cred|session|cookie/i;

/** True when a parameter of this name (percent-encoded or not) may hold a secret. */
export function looksSecret(name: string): boolean {
  let decoded = name;
  try {
    decoded = decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    // A malformed escape: judge the raw name.
  }
  return SECRET_NAME.test(decoded) || SECRET_NAME.test(name);
}

/** Replaces the value of every secret-looking parameter of a query string (`?a=1&b=2`, or without the `?`) by `mask`. */
export function maskSecretParams(query: string, mask: string): string {
  return query.replace(/(^|[?&;])([^=&;?#]*)=([^&;#]*)/g, (whole, sep: string, name: string) => (looksSecret(name) ? `${sep}${name}=${mask}` : whole));
}
