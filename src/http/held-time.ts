/** Time a request spent held on purpose (a long poll waiting for changes): not the service being slow. */
import type { FastifyRequest } from 'fastify';

const held = new WeakMap<FastifyRequest, number>();

/** Adds `ms` to the time `request` was held by design. */
export function noteHeld(request: FastifyRequest, ms: number): void {
  held.set(request, (held.get(request) ?? 0) + ms);
}

/** Milliseconds `request` was held by design (0 for most). */
export function heldFor(request: FastifyRequest): number {
  return held.get(request) ?? 0;
}
