/**
 * `/console`: the analyst console's built files (dist/console), read into memory once at startup.
 * Public like /docs: the page holds no data; its own API calls go through the access door.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { FastifyInstance, FastifyReply, onRequestHookHandler } from 'fastify';
import { ServiceError } from '../../contract/error-codes.js';

export const CONSOLE_PATH = '/console';

/** The console's policy: everything from this origin, nothing inline, never framed. */
export const CONSOLE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  // pdf.js's worker is a module file: a browser loads a module script only with a JavaScript type.
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.ico': 'image/x-icon',
};

interface ConsoleFile {
  body: Buffer;
  type: string;
  etag: string;
}

function fileOf(path: string, body: Buffer = readFileSync(path)): ConsoleFile {
  return { body, type: TYPES[extname(path)] ?? 'application/octet-stream', etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
}

/** The built console in memory: index.html (told the API's base path) and the hashed assets by name; undefined when not built. */
function readConsole(dir: string | undefined, basePath: string): { index: ConsoleFile; assets: Map<string, ConsoleFile> } | undefined {
  if (dir === undefined || !existsSync(join(dir, 'index.html'))) return undefined;
  const assets = new Map<string, ConsoleFile>();
  const assetDir = join(dir, 'assets');
  if (existsSync(assetDir)) for (const name of readdirSync(assetDir)) assets.set(name, fileOf(join(assetDir, name)));
  // A meta tag, not a script: the CSP allows no inline script, and the page reads it at start.
  const html = readFileSync(join(dir, 'index.html'), 'utf8').replace('<head>', `<head>\n    <meta name="compliance-api-base" content="${escapeAttribute(basePath)}" />`);
  return { index: fileOf(join(dir, 'index.html'), Buffer.from(html)), assets };
}

function escapeAttribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

const consoleHeaders: onRequestHookHandler = (_request, reply, done) => {
  reply.header('content-security-policy', CONSOLE_CSP);
  done();
};

function send(reply: FastifyReply, file: ConsoleFile, cacheControl: string, ifNoneMatch: string | undefined): FastifyReply {
  reply.header('cache-control', cacheControl).header('etag', file.etag);
  if (ifNoneMatch === file.etag) return reply.code(304).send();
  return reply.type(file.type).send(file.body);
}

/**
 * Adds `/console` and `/console/*`: a hashed asset by name, any other path index.html (the client
 * routes it). Without `dir`, or while it holds no build, they answer that the console is not built.
 */
export function consoleRoutes(app: FastifyInstance, basePath: string, dir: string | undefined): void {
  const built = readConsole(dir, basePath);
  const notBuilt = () => new ServiceError('not_found', 'the console is not built: run npm run build');
  const index = async (request: { headers: { 'if-none-match'?: string } }, reply: FastifyReply) => {
    if (built === undefined) throw notBuilt();
    // no-cache: a redeploy's index.html (naming new asset hashes) is picked up at once.
    return send(reply, built.index, 'no-cache', request.headers['if-none-match']);
  };
  app.get(CONSOLE_PATH, { onRequest: consoleHeaders }, index);
  app.get(`${CONSOLE_PATH}/assets/:name`, { onRequest: consoleHeaders }, async (request, reply) => {
    if (built === undefined) throw notBuilt();
    const file = built.assets.get((request.params as { name: string }).name);
    if (file === undefined) throw new ServiceError('not_found', 'no such console asset');
    // The name carries the content's hash: a changed file is a new name.
    return send(reply, file, 'public, max-age=31536000, immutable', request.headers['if-none-match']);
  });
  app.get(`${CONSOLE_PATH}/*`, { onRequest: consoleHeaders }, index);
}
