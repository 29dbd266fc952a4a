/** Sends one stored record, with fresh signed URLs in place of its stored document URLs. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isSafeObjectKey, projectSegment, type FileStore } from '../../files/file-store.js';
import type { RecordBytes } from '../../wire/record-bytes.js';
import { isSpliced } from '../../wire/render.js';
import type { RecordKind } from '../../wire/redaction.js';
import { FIELD_CLASSES } from '../../contract/field-classes.js';
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
 * Sends a record read by `reader` (so of its project), as the reader's key is shown records of
 * `kind`; its ETag changes when its bytes do, with the view, or when its signed URLs roll over.
 * Its documents are signed as files of that project only; a large answer is charged to the reader's key.
 */
export async function sendRecord(
  deps: RouteDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  reader: ProjectReader,
  stored: RecordBytes,
  encoding: Encoding,
  kind: RecordKind,
): Promise<void> {
  const project = reader.project;
  const now = Date.now();
  const spliced = isSpliced(stored);
  const projectHasFiles = spliced && projectSegment(project) !== undefined;
  const view = reader.viewOf(kind);
  const tag = view === undefined ? stored.etag : `${stored.etag}.r${view.bits}`;
  // A signed URL names its file: a key not shown personal data gets one without the name.
  const named = view === undefined || (view.bits & FIELD_CLASSES.pii.bit) === 0;
  await sendAnswer(request, reply, stored, encoding, {
    etag: spliced ? `${tag}.${deps.files.expiresAt(now)}` : tag,
    cacheControl: deps.cacheControl,
    view,
    splice: (s) => {
      // A document without an objectKey has no file to sign: its stored URL is still never served.
      if (s.objectKey === undefined || !projectHasFiles) return '';
      // An unsafe key an older version stored must not make the record unreadable.
      if (!isSafeObjectKey(s.objectKey)) {
        request.log.warn({ objectKey: JSON.stringify(s.objectKey).slice(0, 256) }, 'stored document has an unusable objectKey: served an empty URL');
        return '';
      }
      return deps.files.signUrl({ project, objectKey: s.objectKey, filename: named ? s.filename : undefined, mimetype: s.mimetype }, now);
    },
    charge: reader.charge,
  });
}
