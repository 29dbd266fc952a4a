/** The socket's idle time-out, held off while the service itself works on an answer (a long poll's wait, a push's import). */
import type { FastifyRequest } from 'fastify';

/**
 * Runs `work` with the idle time-out of `request`'s socket off, and sets it again before the answer
 * is written, so a client that stops reading the answer is still cut.
 */
export async function withoutIdleTimeout<T>(request: FastifyRequest, work: () => Promise<T>): Promise<T> {
  const socket = request.raw.socket;
  // An injected request's socket (light-my-request) has no time-out to hold off.
  if (typeof socket?.setTimeout !== 'function') return work();
  const idle = socket.timeout ?? 0;
  // The time-out is for clients gone silent: while the service works, the silence is its own.
  socket.setTimeout(0);
  try {
    return await work();
  } finally {
    // Set afresh, it counts from here: the client has the whole time-out to start reading.
    if (!socket.destroyed) socket.setTimeout(idle);
  }
}
