/**
 * The cost of content negotiation on every read: pickEncoding and acceptsJson (negotiator, the
 * last header remembered) against the hand-written parsers they replaced, on headers real clients send.
 * Each call gets a header other than the previous one, so the remembered answer never helps.
 * Run: node --import tsx bench/accept-cost.ts
 */
import { acceptsJson, pickEncoding } from '../src/http/accept.js';
import { nsPerCall, report } from './per-call.js';

const HEADERS = [
  'gzip, deflate, br, zstd', // browsers
  'gzip, deflate', // curl --compressed, python requests
  'gzip', // Go net/http
  'br;q=1.0, gzip;q=0.8, *;q=0.1', // weighted
  'gzip, deflate, br', // node undici
  'identity',
  '*',
];

/** The hand-written parser pickEncoding used before, unchanged. */
function handWritten(header: string): string {
  const q: Record<string, number> = {};
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    let weight = 1;
    for (const p of params) {
      const m = /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(p);
      if (m) weight = Number(m[1]);
    }
    if (name.trim() !== '') q[name.trim()] = Number.isFinite(weight) ? weight : 0;
  }
  const of = (name: string): number => q[name] ?? q['*'] ?? 0;
  if (of('gzip') > 0) return 'gzip';
  if (of('br') > 0) return 'br';
  return 'identity';
}

const ACCEPTS = [
  'application/json',
  '*/*',
  'application/json, text/plain, */*',
  'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
  'application/json;q=0, */*',
];

/** The hand-written parser acceptsJson used before, unchanged. */
function handWrittenAccept(accept: string): boolean {
  if (accept.trim() === '') return true;
  let best = 0;
  for (const part of accept.split(',')) {
    const [range = '', ...params] = part.trim().toLowerCase().split(';');
    const type = range.trim();
    if (type !== 'application/json' && type !== 'application/*' && type !== '*/*') continue;
    let q = 1;
    for (const p of params) {
      const m = /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(p);
      if (m) q = Number(m[1]);
    }
    if (type === 'application/json') return q > 0;
    best = Math.max(best, q);
  }
  return best > 0;
}

for (const h of ACCEPTS) if (handWrittenAccept(h) !== acceptsJson(h)) throw new Error(`they differ on ${h}`);
for (const h of HEADERS) if (handWritten(h) !== pickEncoding(h)) throw new Error(`they differ on ${h}`);

report('Accept-Encoding, a different header on every call', [
  ['hand-written parser', nsPerCall((i) => handWritten(HEADERS[i % HEADERS.length]!))],
  ['pickEncoding (negotiator)', nsPerCall((i) => pickEncoding(HEADERS[i % HEADERS.length]!))],
]);
report('Accept-Encoding, the same header on every call', [
  ['pickEncoding (negotiator, last header remembered)', nsPerCall(() => pickEncoding(HEADERS[0]))],
]);
report('Accept, a different header on every call', [
  ['hand-written parser', nsPerCall((i) => handWrittenAccept(ACCEPTS[i % ACCEPTS.length]!))],
  ['acceptsJson (negotiator)', nsPerCall((i) => acceptsJson(ACCEPTS[i % ACCEPTS.length]!))],
]);
