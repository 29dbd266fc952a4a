/** Content negotiation: JSON is the only media type; gzip and br are the encodings offered. */

/**
 * `parse` answering from its last call when given the same header again: clients send the same
 * Accept and Accept-Encoding on every request, and each read asks for the encoding twice (what to
 * read, then how to send).
 */
function keepingLast<T>(parse: (header: string) => T): (header: string) => T {
  let lastHeader: string | undefined;
  let lastAnswer: T;
  return (header) => {
    if (header !== lastHeader) {
      lastAnswer = parse(header);
      lastHeader = header;
    }
    return lastAnswer;
  };
}

const acceptOf = keepingLast(parseAccept);

/** True when the Accept header admits application/json (absent means anything). */
export function acceptsJson(accept: string | undefined): boolean {
  return accept === undefined || acceptOf(accept);
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

const encodingOf = keepingLast(parseEncoding);

/**
 * Picks the response encoding from Accept-Encoding: gzip whenever it is acceptable at all (it is
 * stored ready, whatever weight br has), br only when gzip is not, else identity.
 */
export function pickEncoding(header: string | undefined): Encoding {
  return header === undefined || header === '' ? 'identity' : encodingOf(header);
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
  if (of('gzip') > 0) return 'gzip';
  if (of('br') > 0) return 'br';
  return 'identity';
}
