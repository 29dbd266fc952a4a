/** Time a request spent held on purpose (a long poll waiting for changes): not the service being slow. */
import type { FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /** Milliseconds the request was held by design, when it was. */
    heldMs?: number;
  }
}

/** Adds `ms` to the time `request` was held by design. */
export function noteHeld(request: FastifyRequest, ms: number): void {
  request.heldMs = (request.heldMs ?? 0) + ms;
}

/** Milliseconds `request` was held by design (0 for most). */
export function heldFor(request: FastifyRequest): number {
  return request.heldMs ?? 0;
}
