/** Socket time-outs and size limits of the HTTP server, as Fastify options. */
import type { ServerOptions } from 'node:http';
import type { FastifyServerOptions } from 'fastify';
import { clientErrorHandler } from './client-errors.js';
import { ConnectionGuard, guardedServer, type ConnectionLimits } from './connection-guard.js';

/** The limits a server is built with, in milliseconds and bytes. */
export interface ServerLimits extends ConnectionLimits {
  requestTimeout: number;
  headersTimeout: number;
  keepAliveTimeout: number;
  maxHeaderBytes: number;
}

/** Fastify options enforcing `limits`; parser rejections (431, 408, 400) answer with the spec's error body. */
export function limitOptions(limits: ServerLimits | undefined): Partial<FastifyServerOptions> & { http?: ServerOptions } {
  // Node's own refusal of a request without Host has no body: the server's onRequest refuses it with the contract's.
  if (limits === undefined) return { clientErrorHandler, http: { requireHostHeader: false } };
  const guard = new ConnectionGuard(limits);
  return {
    requestTimeout: limits.requestTimeout,
    keepAliveTimeout: limits.keepAliveTimeout,
    // A socket silent for as long as a whole request may take is dead or hostile (the service's own work holds it off: idle-timeout.ts).
    connectionTimeout: limits.requestTimeout,
    http: {
      requireHostHeader: false,
      requestTimeout: limits.requestTimeout,
      // Node refuses a headers time-out longer than the request time-out.
      headersTimeout: Math.min(limits.headersTimeout, limits.requestTimeout),
      maxHeaderSize: limits.maxHeaderBytes,
      // Node checks the two time-outs above only this often (30 s by default), which would let a
      // slow client hold a socket far past HEADERS_TIMEOUT_MS.
      connectionsCheckingInterval: Math.min(1000, limits.headersTimeout),
    },
    clientErrorHandler,
    // Fastify's own server, with the same time-outs set on it, built with the guard of connections.
    serverFactory: (handler, options) => {
      const server = guardedServer(options.http ?? {}, handler, guard);
      server.keepAliveTimeout = limits.keepAliveTimeout;
      server.requestTimeout = limits.requestTimeout;
      server.setTimeout(limits.requestTimeout);
      return server;
    },
  };
}
