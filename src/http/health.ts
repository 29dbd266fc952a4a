/**
 * Liveness and readiness for orchestrators: outside the base path, no key, no rate limit.
 * /healthz says the process answers (restart it when it does not); /readyz says it can serve
 * reads now (route traffic elsewhere when it cannot). Redis is deliberately not checked: the
 * rate limiter fails open, so a Redis outage does not stop this replica from serving.
 */
import type { FastifyInstance } from 'fastify';
import { ServiceError } from '../contract/error-codes.js';
import type { Store } from '../store/store.js';
import { JSON_CSP } from './errors.js';

/** A probe must answer within the orchestrator's probe timeout even when the store hangs. */
const READY_TIMEOUT_MS = 2000;

/** A plugin adding GET /healthz and GET /readyz. */
export function healthRoutes(store: Pick<Store, 'ping'>): (app: FastifyInstance) => void {
  return (app) => {
    app.get('/healthz', async (_request, reply) => {
      reply.header('cache-control', 'no-store').header('content-security-policy', JSON_CSP);
      return { status: 'ok' };
    });
    app.get('/readyz', async (request, reply) => {
      reply.header('cache-control', 'no-store').header('content-security-policy', JSON_CSP);
      try {
        await withTimeout(store.ping(), READY_TIMEOUT_MS);
      } catch (err) {
        request.log.warn({ err: { message: (err as Error).message } }, 'not ready: the store does not answer');
        throw new ServiceError('unavailable', 'the store is unavailable; retry later');
      }
      return { status: 'ready' };
    });
  };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
