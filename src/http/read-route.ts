/** Registers a read operation: the access door, then parameter checks, then the handler. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Operation } from '../contract/operations.js';
import { requireAccess, type AccessDeps, type ProjectReader } from './access.js';
import type { Parameters } from './parameters.js';
import { parametersOf } from './parsed-urls.js';

/** What a read handler is given: never the store itself, only the project's reader. */
export interface ReadContext {
  request: FastifyRequest;
  reply: FastifyReply;
  reader: ProjectReader;
  params: Parameters;
}

/** The Fastify form of an OpenAPI path (`{id}` → `:id`). */
export function routePath(basePath: string, path: string): string {
  return basePath + path.replace(/\{(\w+)\}/g, ':$1');
}

/** Adds GET (and so HEAD) for `op` under `basePath`; every such route passes requireAccess. */
export function readRoute(app: FastifyInstance, deps: AccessDeps, basePath: string, op: Operation, handler: (ctx: ReadContext) => Promise<void>): void {
  app.get(routePath(basePath, op.path), async (request, reply) => {
    const reader = await requireAccess(deps, request, op.scope, (name, value) => void reply.header(name, value));
    const params = parametersOf(op, request.params as Record<string, string>, request.url);
    await handler({ request, reply, reader, params });
  });
}
