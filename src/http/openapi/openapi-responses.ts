/**
 * Response headers and error responses of the OpenAPI document, derived from the error
 * catalogue (ERROR_CODES) so the document lists exactly the codes the service answers with.
 */
import { ERROR_CODES, type ErrorCode } from '../../contract/error-codes.js';

type Json = Record<string, unknown>;

/** The statuses every read operation documents as explicit error responses. */
export const READ_ERROR_STATUSES = [400, 401, 403, 404, 406, 429, 500, 503] as const;

/** The statuses an operation that reads a request body documents beyond those (body too large, wrong media type). */
export const BODY_ERROR_STATUSES = [413, 415] as const;

const ERROR_BODY_REF = { $ref: '#/components/schemas/ErrorBody' };
const header = (name: string): Json => ({ $ref: `#/components/headers/${name}` });

/** Header components: the headers every answer, or every authenticated answer, carries. */
export function headerComponents(): Record<string, Json> {
  const text = (description: string): Json => ({ description, schema: { type: 'string' } });
  const integer = (description: string): Json => ({ description, schema: { type: 'integer', minimum: 0 } });
  return {
    'X-Request-Id': text('identifier of this request (the one sent in X-Request-Id when it is sane, else a new uuid); quote it when reporting a problem'),
    ETag: text('strong validator of the content; send it back in If-None-Match to get 304 Not Modified. Ends in -gz or -br for a compressed body'),
    'Cache-Control': text('caching policy of the answer (configurable with CACHE_CONTROL; `no-store` by default, since answers depend on the key)'),
    Vary: text('Accept-Encoding, Authorization: the body is gzip encoded whenever the client accepts gzip, br encoded only when it accepts br and not gzip; it is the answer to the key that asked'),
    'RateLimit-Limit': integer("the key's token budget (burst size of its token bucket)"),
    'RateLimit-Remaining': integer('tokens left in the budget right now, after what earlier answers cost (1 per started 32 KiB of JSON or 50 items, twice when compressed per request)'),
    'RateLimit-Reset': integer('seconds until the budget is full again'),
    'Retry-After': integer('seconds to wait before the next request'),
    'WWW-Authenticate': text('the Bearer challenge: `Bearer realm="compliance-read"`'),
  };
}

/** Headers of a successful read, plus the operation's own (`Link` of the paged one). */
export function successHeaders(extra: Readonly<Record<string, { description: string }>> = {}): Json {
  const own = Object.fromEntries(
    Object.entries(extra).map(([name, h]) => [name, { description: h.description, schema: { type: 'string' } }]),
  );
  return {
    ETag: header('ETag'),
    'Cache-Control': header('Cache-Control'),
    Vary: header('Vary'),
    ...own,
    ...rateLimitHeaders(),
    'X-Request-Id': header('X-Request-Id'),
  };
}

/** Headers of a 304: the validator and the per-request ones, never a body. */
export function notModifiedHeaders(): Json {
  return { ETag: header('ETag'), 'Cache-Control': header('Cache-Control'), ...rateLimitHeaders(), 'X-Request-Id': header('X-Request-Id') };
}

function rateLimitHeaders(): Json {
  return {
    'RateLimit-Limit': header('RateLimit-Limit'),
    'RateLimit-Remaining': header('RateLimit-Remaining'),
    'RateLimit-Reset': header('RateLimit-Reset'),
  };
}

/** Headers some error codes add to the error body. */
const ERROR_HEADERS: Partial<Record<ErrorCode, readonly string[]>> = {
  unauthorized: ['WWW-Authenticate'],
  rate_limited: ['Retry-After', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'],
};

/** The codes answered with `status`, in catalogue order. */
export function codesWithStatus(status: number): ErrorCode[] {
  return (Object.keys(ERROR_CODES) as ErrorCode[]).filter((code) => ERROR_CODES[code].status === status);
}

/** Name of the response component for an error status. */
export function errorResponseName(status: number): string {
  return `Error${status}`;
}

/** One error response: ErrorBody, and a description naming each code of that status and when it happens. */
function errorResponse(codes: readonly ErrorCode[]): Json {
  const lines = codes.map((code) => `\`${code}\`: ${ERROR_CODES[code].when}.`);
  const headers: Json = { 'X-Request-Id': header('X-Request-Id') };
  for (const code of codes) for (const name of ERROR_HEADERS[code] ?? []) headers[name] = header(name);
  return {
    description: lines.join(' '),
    headers,
    content: { 'application/json': { schema: ERROR_BODY_REF } },
  };
}

/** The `default` response: ErrorBody, with a table of every error code, its status and when. */
function defaultResponse(): Json {
  const rows = (Object.keys(ERROR_CODES) as ErrorCode[]).map(
    (code) => `| \`${code}\` | ${ERROR_CODES[code].status} | ${ERROR_CODES[code].when.replace(/\|/g, '\\|')} |`,
  );
  return {
    description: [
      'Any error. The body is an ErrorBody whose `code` is one of:',
      '',
      '| code | HTTP status | when |',
      '|---|---|---|',
      ...rows,
    ].join('\n'),
    headers: { 'X-Request-Id': header('X-Request-Id') },
    content: { 'application/json': { schema: ERROR_BODY_REF } },
  };
}

/** Response components: `Error` (the default) and `Error<status>` for each status an operation names (405, for instance, only the default describes). */
export function responseComponents(statuses: readonly number[]): Record<string, Json> {
  const out: Record<string, Json> = { Error: defaultResponse() };
  for (const status of statuses) out[errorResponseName(status)] = errorResponse(codesWithStatus(status));
  return out;
}

/** An operation's error responses: the explicit statuses given, plus `default`. */
export function errorResponses(statuses: readonly number[]): Json {
  const out: Json = {};
  for (const status of statuses) out[String(status)] = { $ref: `#/components/responses/${errorResponseName(status)}` };
  out.default = { $ref: '#/components/responses/Error' };
  return out;
}
