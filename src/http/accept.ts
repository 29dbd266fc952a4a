/** Content negotiation: JSON is the only media type; gzip and br are the encodings offered. */
import Negotiator from 'negotiator';

/**
 * `parse` answering from its last call when given the same header again: clients send the same
 * Accept and Accept-Encoding on every request.
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

const JSON_TYPE = ['application/json'];

const acceptOf = keepingLast((accept) => accept.trim() === '' || negotiator('accept', accept).mediaType(JSON_TYPE) !== undefined);

/** True when the Accept header admits application/json (absent means anything). */
export function acceptsJson(accept: string | undefined): boolean {
  return accept === undefined || acceptOf(accept);
}

export type Encoding = 'gzip' | 'br' | 'identity';

const OFFERED: Encoding[] = ['gzip', 'br'];

const encodingOf = keepingLast((header): Encoding => {
  const acceptable = negotiator('accept-encoding', header).encodings(OFFERED);
  if (acceptable.includes('gzip')) return 'gzip';
  if (acceptable.includes('br')) return 'br';
  return 'identity';
});

/**
 * Picks the response encoding from Accept-Encoding: gzip whenever it is acceptable at all (it is
 * stored ready, whatever weight br has), br only when gzip is not, else identity.
 */
export function pickEncoding(header: string | undefined): Encoding {
  return header === undefined || header === '' ? 'identity' : encodingOf(header);
}

/** A negotiator over one header; it reads nothing else of the request. */
function negotiator(name: 'accept' | 'accept-encoding', value: string): Negotiator {
  return new Negotiator({ headers: { [name]: value } });
}
