/** GET /files/:objectKey — a document file, for holders of a valid signed URL (the signature is the credential). */
import { createReadStream } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { ServiceError } from '../../contract/error-codes.js';
import { downloadHeaders } from '../../files/download-headers.js';
import type { LocalFileStore } from '../../files/local-file-store.js';

/** Registers the signed file download route of the local file store. */
export function fileDownloadRoute(app: FastifyInstance, basePath: string, files: LocalFileStore): void {
  app.get(`${basePath}/files/:objectKey`, async (request, reply) => {
    const q = request.query as Record<string, unknown>;
    const now = Date.now();
    const verdict = await files.verify({ ...q, objectKey: (request.params as { objectKey: string }).objectKey }, now);
    if (!verdict.ok) {
      if (verdict.reason === 'not_found') throw new ServiceError('not_found', 'no such file');
      throw new ServiceError('forbidden', 'the file URL is not valid: altered, or expired');
    }
    reply.headers(downloadHeaders(verdict, now));
    return reply.send(createReadStream(verdict.path));
  });
}
