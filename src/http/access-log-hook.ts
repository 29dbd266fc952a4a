/** Records every answer under the base path (reads and refused attempts) in the access log. */
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { recordKey } from '../contract/record-key.js';
import type { AccessLogWriter } from './access-log-writer.js';

/** The record a request asked for: the id, customerId or objectKey path parameter. */
function recordOf(request: FastifyRequest): string | null {
  const params = (request.params ?? {}) as Record<string, string | undefined>;
  const id = params.id ?? params.customerId ?? params.objectKey;
  return id === undefined ? null : recordKey(id).slice(0, 512);
}

let lastMs = 0;
let lastIso = '';
let second = -1;
let secondPrefix = '';
/** The time now as ISO 8601: formatted in full once per second, the milliseconds appended per answer. */
function isoNow(): string {
  const ms = Date.now();
  if (ms !== lastMs) {
    lastMs = ms;
    const within = ms % 1000;
    if (ms - within !== second) {
      second = ms - within;
      secondPrefix = new Date(second).toISOString().slice(0, 20);
    }
    lastIso = `${secondPrefix}${within < 10 ? '00' : within < 100 ? '0' : ''}${within}Z`;
  }
  return lastIso;
}

/** Adds the onResponse hook that feeds the writer. */
export function accessLogHook(app: FastifyInstance, basePath: string, writer: AccessLogWriter): void {
  const skip = new Set([`${basePath}/openapi.json`]);
  // Node reads a socket's peer address lazily and cannot once the socket is gone: read it while
  // the connection is new, so a client that hangs up before its answer is logged is still named.
  app.server.on('connection', (socket: Socket) => void socket.remoteAddress);
  // A callback hook, like the server's others: no promise per request.
  app.addHook('onResponse', (request, reply, done) => {
    if (request.url.startsWith(`${basePath}/`)) {
      const route = request.routeOptions.url ?? 'unmatched';
      if (!skip.has(route)) record(request, reply.statusCode, route);
    }
    done();
  });
  const record = (request: FastifyRequest, status: number, route: string): void =>
    writer.append({
      at: isoNow(),
      keyId: request.apiKey?.id ?? null,
      project: request.apiKey?.project ?? request.accessProject ?? '',
      route,
      recordId: recordOf(request),
      status,
      requestId: request.id,
      client: request.ip ?? '',
    });
}
