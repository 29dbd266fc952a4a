/** Content negotiation: JSON is the only media type; gzip and br are the encodings offered. */

let lastAccept = '';
let lastAccepts = true;

/** True when the Accept header admits application/json (absent means anything). */
export function acceptsJson(accept: string | undefined): boolean {
  if (accept === undefined) return true;
  // As with Accept-Encoding below: a client's Accept is the same on every request.
  if (accept === lastAccept) return lastAccepts;
  lastAccepts = parseAccept(accept);
  lastAccept = accept;
  return lastAccepts;
}

function parseAccept(accept: string): boolean {
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
    // The most specific range decides (application/json;q=0 refuses even with */*).
    if (type === 'application/json') return q > 0;
    best = Math.max(best, q);
  }
  return best > 0;
}

export type Encoding = 'gzip' | 'br' | 'identity';

// Clients send the same Accept-Encoding on every request, and each request asks twice (what to
// read, then how to send): the last header's answer is kept rather than parsed again.
let lastHeader = '';
let lastEncoding: Encoding = 'identity';

/** Picks the response encoding from Accept-Encoding: gzip first (it is stored ready), then br. */
export function pickEncoding(header: string | undefined): Encoding {
  if (header === undefined || header === '') return 'identity';
  if (header === lastHeader) return lastEncoding;
  lastEncoding = parseEncoding(header);
  lastHeader = header;
  return lastEncoding;
}

function parseEncoding(header: string): Encoding {
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
  if (of('gzip') > 0 && of('gzip') >= of('br')) return 'gzip';
  if (of('br') > 0) return 'br';
  return 'identity';
}
