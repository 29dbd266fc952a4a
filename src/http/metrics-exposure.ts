/**
 * Where /metrics is served: on its own port (for a scraper inside the cluster network), or on
 * the main port behind a bearer token, or nowhere. Metrics name routes, volumes and error
 * rates, so they are never public by default.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { ServiceError } from '../contract/error-codes.js';
import type { Metrics } from './metrics.js';

const BEARER = /^Bearer +([^\s]+) *$/i;

/** Compares hashes, so neither the token's bytes nor its length leak through timing. */
function sameToken(given: string, expected: string): boolean {
  const digest = (s: string): Buffer => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/** A plugin serving GET /metrics on the main port to callers presenting `Authorization: Bearer <token>`. */
export function metricsRoute(metrics: Metrics, token: string): (app: FastifyInstance) => void {
  return (app) => {
    app.get('/metrics', async (request, reply) => {
      const m = BEARER.exec(request.headers.authorization ?? '');
      if (m === null || !sameToken(m[1]!, token)) {
        throw new ServiceError('unauthorized', 'metrics need Authorization: Bearer <metrics token>', [], { 'www-authenticate': 'Bearer realm="metrics"' });
      }
      reply.header('cache-control', 'no-store').type(metrics.registry.contentType);
      return metrics.registry.metrics();
    });
  };
}

/** A running metrics listener. */
export interface MetricsServer {
  url: string;
  close(): Promise<void>;
}

/** Serves GET /metrics, and nothing else, on its own port. */
export async function startMetricsServer(metrics: Pick<Metrics, 'registry'>, host: string, port: number): Promise<MetricsServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(new ServiceError('not_found', 'only /metrics is served here').body()));
      return;
    }
    metrics.registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': metrics.registry.contentType, 'cache-control': 'no-store' }).end(req.method === 'HEAD' ? undefined : text),
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections(); // scrapes are short; nothing worth waiting for
        server.close(() => resolve());
      }),
  };
}
