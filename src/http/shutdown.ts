/**
 * Graceful stop of the HTTP server: stop accepting connections, let requests in flight finish
 * within a grace period, then cut whatever is left so the process can exit.
 */
import type { FastifyInstance } from 'fastify';

/** How often idle keep-alive sockets are reaped while draining. */
const REAP_INTERVAL_MS = 50;

/** Closes `app`, waiting at most `graceMs` for requests in flight; resolves once every socket is gone. */
export async function closeGracefully(app: FastifyInstance, graceMs: number): Promise<void> {
  const server = app.server;
  app.log.info({ graceMs }, 'shutting down: refusing new connections, draining requests in flight');
  // fastify's close reaps idle keep-alive sockets once; a socket whose request finishes after
  // that turns idle and would hold the close for a whole keep-alive timeout, so keep reaping.
  const reap = setInterval(() => server.closeIdleConnections(), REAP_INTERVAL_MS);
  const deadline = setTimeout(() => {
    app.log.warn({ graceMs }, 'shutdown grace period over: closing connections with requests still in flight');
    server.closeAllConnections();
  }, graceMs);
  try {
    await app.close();
  } finally {
    clearInterval(reap);
    clearTimeout(deadline);
  }
}
