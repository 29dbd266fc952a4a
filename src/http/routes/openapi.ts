/**
 * `{base}/openapi.json` (the OpenAPI document) and `/docs` (a reference page rendered from it
 * by Swagger UI). Both are public; the page's scripts, styles and images come from this service
 * only, and a Content-Security-Policy holds the browser to that.
 */
import { createHash } from 'node:crypto';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { OPENAPI_JSON_PATH, openApiDocument, type OpenApiOptions } from '../openapi/openapi-document.js';

/** Where the document and the page are served. */
export interface OpenApiRouteOptions extends OpenApiOptions {
  /** Path of the reference page (default `/docs`). */
  docsPath?: string;
}

/** The default path of the reference page. */
export const DOCS_PATH = '/docs';

/** A server plugin adding the OpenAPI document and the reference page; the document is computed once. */
export function openApiRoutes(options: OpenApiRouteOptions): (app: FastifyInstance) => Promise<void> {
  return async (app) => {
    const document = openApiDocument(options);
    const body = JSON.stringify(document);
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
    const docsPath = options.docsPath ?? DOCS_PATH;

    app.get(`${options.basePath}${OPENAPI_JSON_PATH}`, async (request, reply) => {
      // no-cache, not no-store: clients revalidate with the ETag and get 304 until a redeploy.
      reply.header('etag', etag).header('cache-control', 'no-cache');
      if (request.headers['if-none-match'] === etag) return reply.code(304).send();
      return reply.type('application/json; charset=utf-8').send(body);
    });

    // Static mode: the document is the generated one, not one inferred from Fastify's routes.
    // The plugin types know OpenAPI 3.0 documents only; the 3.1 one is passed through as is.
    await app.register(fastifySwagger, { mode: 'static', specification: { document: document as never } });
    await app.register(fastifySwaggerUi, {
      routePrefix: docsPath,
      // The top bar would offer to load any URL's document; the page shows this service's only.
      uiConfig: { layout: 'BaseLayout', deepLinking: true, displayOperationId: true },
      theme: { title: 'Customer Compliance Read Service: API reference' },
      staticCSP: contentSecurityPolicy(options.serverUrl),
    });
  };
}

/**
 * The page's CSP: everything from this origin, nothing from a CDN. Swagger UI sets inline
 * styles on elements, hence 'unsafe-inline' for styles (never for scripts); "Try it out" may
 * call the public origin when it differs from the one the page is viewed on.
 */
function contentSecurityPolicy(serverUrl: string | undefined): Record<string, string[]> {
  const connect = ["'self'"];
  if (serverUrl !== undefined) connect.push(new URL(serverUrl).origin);
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:'],
    'font-src': ["'self'", 'data:'],
    'connect-src': connect,
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
}
