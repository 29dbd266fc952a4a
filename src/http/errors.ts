/** Turns anything thrown while answering into the spec's error body with a fitting status. */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ERROR_CODES, ServiceError, type ErrorCode } from '../contract/error-codes.js';
import { StoreUnavailableError } from '../store/store-errors.js';

const BY_STATUS: Record<number, ErrorCode> = {
  400: 'invalid_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  406: 'not_acceptable',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  503: 'unavailable',
};

/** The policy of every JSON answer: nothing in it may run or be framed. */
export const JSON_CSP = "default-src 'none'; frame-ancestors 'none'";

/** Headers of an answer the error replaces: its validators, links, encoding and attachment must not outlive it. */
const DROPPED_ON_ERROR = ['etag', 'last-modified', 'link', 'content-encoding', 'content-disposition', 'content-length'] as const;

/** Framework messages quote the whole URL: each known one gets a fixed issue instead. */
const FRAMEWORK_MESSAGES: Record<string, string> = {
  FST_ERR_BAD_URL: 'path: not a valid URL (bad percent-encoding)',
  FST_ERR_MAX_PARAM_LENGTH: 'path: a path parameter is longer than 512 characters',
};

/** At most a short prefix of a text that may carry client input. */
export function bounded(text: string, max = 120): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

/** The ServiceError a thrown value stands for; unexpected faults become `internal`. */
export function toServiceError(err: unknown): ServiceError {
  if (err instanceof ServiceError) return err;
  // A second: a restart or failover is usually that quick, and a client backing off longer is told so by the next 503.
  if (err instanceof StoreUnavailableError) return new ServiceError('unavailable', 'the store is unavailable; retry later', [], { 'retry-after': '1' });
  const fe = err as Partial<FastifyError>;
  const status = fe.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    const code = BY_STATUS[status] ?? 'invalid_request';
    // Framework messages for client errors may quote the request: a fixed text or a short prefix only.
    const fixed = fe.code !== undefined ? FRAMEWORK_MESSAGES[fe.code] : undefined;
    if (fixed !== undefined) return new ServiceError(code, 'the request URL is not valid', [{ message: fixed }]);
    const message = bounded(fe.message ?? 'bad request');
    return new ServiceError(code, message, [{ message }]);
  }
  return new ServiceError('internal', 'internal error; quote the X-Request-Id when reporting it');
}

/** Fastify error handler: logs faults with the request id, never sends stacks or SQL. */
export function errorHandler(err: unknown, request: FastifyRequest, reply: FastifyReply): void {
  const e = toServiceError(err);
  // An outage is logged whole once where it starts (src/app/store-outage-log.ts); each of its 503s in one short line.
  if (err instanceof StoreUnavailableError) request.log.warn({ code: e.code }, 'answered 503: the store is unavailable');
  else if (e.status >= 500) request.log.error({ err }, 'request failed');
  const status = ERROR_CODES[e.code].status;
  for (const name of DROPPED_ON_ERROR) reply.removeHeader(name);
  // Error answers are never stored: a cache must not serve one in place of a later success.
  reply.header('cache-control', 'no-store').header('content-security-policy', JSON_CSP);
  for (const [name, value] of Object.entries(e.headers)) reply.header(name, value);
  void reply.code(status).type('application/json; charset=utf-8').send(e.body());
}
