/** Sends one stored record, with fresh signed URLs in place of its stored document URLs. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isSafeObjectKey, projectSegment, type FileStore } from '../../files/file-store.js';
import type { RecordBytes } from '../../wire/record-bytes.js';
import { isSpliced } from '../../wire/render.js';
import type { AccessDeps, ProjectReader } from '../access.js';
import type { Encoding } from '../accept.js';
import { sendAnswer } from '../respond.js';

/** What the record routes share. */
export interface RouteDeps {
  app: FastifyInstance;
  access: AccessDeps;
  basePath: string;
  files: FileStore;
  cacheControl: string;
  secret: Buffer;
}

/**
 * Sends a record read by `reader` (so of its project); its ETag changes when its bytes do or when
 * its signed URLs roll over. Its documents are signed as files of that project only; a large answer
 * is charged to the reader's key.
 */
export async function sendRecord(
  deps: RouteDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  reader: ProjectReader,
  stored: RecordBytes,
  encoding: Encoding,
): Promise<void> {
  const project = reader.project;
  const now = Date.now();
  const spliced = isSpliced(stored);
  const projectHasFiles = spliced && projectSegment(project) !== undefined;
  await sendAnswer(request, reply, stored, encoding, {
    etag: spliced ? `${stored.etag}.${deps.files.expiresAt(now)}` : stored.etag,
    cacheControl: deps.cacheControl,
    splice: (s) => {
      // A document without an objectKey has no file to sign: its stored URL is still never served.
      if (s.objectKey === undefined || !projectHasFiles) return '';
      // An unsafe key an older version stored must not make the record unreadable.
      if (!isSafeObjectKey(s.objectKey)) {
        request.log.warn({ objectKey: JSON.stringify(s.objectKey).slice(0, 256) }, 'stored document has an unusable objectKey: served an empty URL');
        return '';
      }
      return deps.files.signUrl({ project, objectKey: s.objectKey, filename: s.filename, mimetype: s.mimetype }, now);
    },
    charge: reader.charge,
  });
}
