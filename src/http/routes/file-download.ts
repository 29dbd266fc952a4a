/**
 * GET /files/:project/:objectKey — a project's document file, for holders of a valid signed URL
 * (the signature, which covers the project, is the credential).
 */
import { createReadStream } from 'node:fs';
import { pipeline, Transform } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { ServiceError } from '../../contract/error-codes.js';
import { downloadHeaders } from '../../files/download-headers.js';
import { noteBodyHandedOver } from '../access-log-hook.js';
import type { LocalFileStore } from '../../files/local-file-store.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The project an answer without an API key belongs to (a download's verified URL), for the access log. */
    accessProject?: string;
  }
}

/** Registers the signed file download route of the local file store. */
export function fileDownloadRoute(app: FastifyInstance, basePath: string, files: LocalFileStore): void {
  app.get(`${basePath}/files/:project/:objectKey`, async (request, reply) => {
    // The signature is the credential: an API key the request also carries neither names its project nor spends for it.
    request.keyChecked = true;
    const q = request.query as Record<string, unknown>;
    const { project, objectKey } = request.params as { project: string; objectKey: string };
    const now = Date.now();
    const verdict = await files.verify({ ...q, project, objectKey }, now);
    // A valid signature vouches for the project: the download is logged under it.
    if (verdict.ok || verdict.reason === 'not_found') request.accessProject = project;
    if (!verdict.ok) {
      if (verdict.reason === 'not_found') throw new ServiceError('not_found', 'no such file');
      throw new ServiceError('forbidden', 'the file URL is not valid: altered, or expired');
    }
    reply.headers(downloadHeaders(verdict, now));
    let handed = 0;
    // Counted on its way to the answer: the file's last byte is handed over before its stream ends.
    const counted = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        handed += chunk.length;
        if (handed >= verdict.size) noteBodyHandedOver(request);
        done(null, chunk);
      },
    });
    // A read failing midway destroys the answer's stream with its error.
    pipeline(createReadStream(verdict.path), counted, () => undefined);
    return reply.send(counted);
  });
}
