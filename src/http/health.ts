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

/** How long one store check answers every /readyz: the probe needs no key, so a flood of them must not reach the store. */
export const READY_REUSE_MS = 250;

/** A plugin adding GET /healthz and GET /readyz. */
export function healthRoutes(store: Pick<Store, 'ping'>): (app: FastifyInstance) => void {
  return (app) => {
    app.get('/healthz', async (_request, reply) => {
      reply.header('cache-control', 'no-store').header('content-security-policy', JSON_CSP);
      return { status: 'ok' };
    });
    const check = sharedCheck(() => withTimeout(store.ping(), READY_TIMEOUT_MS), READY_REUSE_MS);
    app.get('/readyz', async (request, reply) => {
      reply.header('cache-control', 'no-store').header('content-security-policy', JSON_CSP);
      try {
        await check();
      } catch (err) {
        request.log.warn({ err: { message: (err as Error).message } }, 'not ready: the store does not answer');
        // Answered here rather than thrown: the error handler would log every failed probe as a fault with its stack.
        const unavailable = new ServiceError('unavailable', 'the store is unavailable; retry later');
        return reply.code(unavailable.status).type('application/json; charset=utf-8').send(unavailable.body());
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

/** `run`, shared by every caller while it runs and for `reuseMs` after it settles. */
function sharedCheck(run: () => Promise<unknown>, reuseMs: number): () => Promise<unknown> {
  let current: Promise<unknown> | undefined;
  return () => {
    if (current !== undefined) return current;
    const started = run();
    current = started;
    const forget = (): void => void setTimeout(() => (current = current === started ? undefined : current), reuseMs).unref();
    started.then(forget, forget);
    return started;
  };
}
