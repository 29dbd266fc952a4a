/**
 * Answers to requests Node's HTTP parser rejects before any route runs (headers too large,
 * too slow, malformed). They get the spec's error body like every other error, then the
 * connection is closed, since the parser cannot find the next request on it.
 */
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { ServiceError } from '../contract/error-codes.js';
import { JSON_CSP } from './errors.js';

/** What the socket is told for a parser error code. */
function answerFor(code: string | undefined): { status: number; error: ServiceError } {
  if (code === 'HPE_HEADER_OVERFLOW') {
    return { status: 431, error: new ServiceError('invalid_request', 'the request line and headers are too large') };
  }
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return { status: 408, error: new ServiceError('invalid_request', 'the request was not received in time') };
  }
  return { status: 400, error: new ServiceError('invalid_request', 'the request is not valid HTTP') };
}

/** Fastify's clientErrorHandler: writes a bare HTTP/1.1 error response with the spec's body, then closes. */
export function clientErrorHandler(err: Error & { code?: string }, socket: Duplex): void {
  // A reset connection has nobody left to answer.
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  if (socket.writable) {
    const { status, error } = answerFor(err.code);
    const body = JSON.stringify(error.body());
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nContent-Security-Policy: ${JSON_CSP}\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}
