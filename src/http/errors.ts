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
  429: 'rate_limited',
  503: 'unavailable',
};

/** The ServiceError a thrown value stands for; unexpected faults become `internal`. */
export function toServiceError(err: unknown): ServiceError {
  if (err instanceof ServiceError) return err;
  if (err instanceof StoreUnavailableError) return new ServiceError('unavailable', 'the store is unavailable; retry later');
  const fe = err as Partial<FastifyError>;
  const status = fe.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    const code = BY_STATUS[status] ?? 'invalid_request';
    // Framework messages for client errors (bad URL encoding, oversized headers) are safe to show.
    return new ServiceError(code, fe.message ?? 'bad request', [{ message: fe.message ?? 'bad request' }]);
  }
  return new ServiceError('internal', 'internal error; quote the X-Request-Id when reporting it');
}

/** Fastify error handler: logs faults with the request id, never sends stacks or SQL. */
export function errorHandler(err: unknown, request: FastifyRequest, reply: FastifyReply): void {
  const e = toServiceError(err);
  if (e.status >= 500) request.log.error({ err }, 'request failed');
  const status = ERROR_CODES[e.code].status;
  for (const [name, value] of Object.entries(e.headers)) reply.header(name, value);
  void reply.code(status).type('application/json; charset=utf-8').send(e.body());
}
