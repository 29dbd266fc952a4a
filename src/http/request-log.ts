/** The application log's line per request: what was asked and how it was answered, written once it is answered. */
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import { heldFor } from './held-time.js';

/** An answer that took at least this long, apart from a long poll's wait, is logged at `info` whatever its status. */
export const SLOW_REQUEST_MS = 1000;

/**
 * One `request completed` line per request carries the request (method, URL, host, remote address
 * and port) beside its answer (status, response time). At `info` only the answers an operator acts
 * on are written, those with a status of 400 or more and slow ones: every read is in the access
 * log already, and a line per answer was among the largest costs of a read. Every answer at `debug`,
 * where `incoming request` also marks each arrival, so a request that never completes can be followed.
 */
export class RequestLog extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    if (this.isLogDisabled(request)) return;
    request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    if (error) {
      reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
      return;
    }
    const elapsed = reply.elapsedTime;
    const line = { req: request, res: reply, responseTime: elapsed };
    if (reply.statusCode >= 400 || elapsed - heldFor(request) >= SLOW_REQUEST_MS) reply.log.info(line, 'request completed');
    else reply.log.debug(line, 'request completed');
  }
}
