/** The application log's line per request: what was asked and how it was answered, written once it is answered. */
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * At `info`, one `request completed` line per request carries the request (method, URL, host,
 * remote address and port) beside its answer (status, response time); `incoming request` moves to
 * `debug`, where a request that never completes can still be followed from its start.
 */
export class RequestLog extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    if (this.isLogDisabled(request)) return;
    request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    if (error) reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}
