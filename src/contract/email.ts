/**
 * The `email` format of JSON Schema 2020-12 (the dialect of OpenAPI 3.1): the Mailbox rule of
 * RFC 5321 section 4.1.2. A dot-string or quoted local part, then a domain or an address literal
 * (IPv4, IPv6 or a general one). A domain needs no dot (`user@localhost` is a mailbox), and
 * internationalized addresses are the `idn-email` format, not this one.
 */
import { isIPv6 } from 'node:net';

// atext of RFC 5322 section 3.2.3, in dot-separated atoms.
const DOT_STRING = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
// qtextSMTP (32-33, 35-91, 93-126) or a quoted pair (backslash then 32-126).
const QUOTED_STRING = /^"(?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\[\x20-\x7e])*"$/;
const DOMAIN = /^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*$/;
// Snum: one to three digits naming 0 to 255.
const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;
// Standardized-tag ":" 1*dcontent (33-90, 94-126).
const GENERAL_LITERAL = /^[A-Za-z0-9-]*[A-Za-z0-9]:[\x21-\x5a\x5e-\x7e]+$/;

function isAddressLiteral(inner: string): boolean {
  const v4 = IPV4.exec(inner);
  if (v4) return v4.slice(1).every((n) => Number(n) <= 255);
  if (inner.slice(0, 5).toLowerCase() === 'ipv6:') return isIPv6(inner.slice(5));
  return GENERAL_LITERAL.test(inner);
}

/** True when `value` is a Mailbox of RFC 5321 (section 4.1.2). */
export function isEmail(value: string): boolean {
  // A quoted local part may hold "@" and a general literal may too, but a literal holds no "[":
  // the domain starts after the last "@", or at the last "[" for a literal.
  const at = value.endsWith(']') ? value.lastIndexOf('[') - 1 : value.lastIndexOf('@');
  if (at <= 0 || value[at] !== '@') return false;
  const local = value.slice(0, at);
  const domain = value.slice(at + 1);
  if (!DOT_STRING.test(local) && !QUOTED_STRING.test(local)) return false;
  if (domain.startsWith('[') && domain.endsWith(']')) return isAddressLiteral(domain.slice(1, -1));
  return DOMAIN.test(domain);
}
