/** Sends one stored record, with fresh signed URLs in place of its stored document URLs. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FileStore } from '../../files/file-store.js';
import type { BodyNeed, StoredRead } from '../../store/store.js';
import type { AccessDeps, ProjectReader } from '../access.js';
import { pickEncoding } from '../accept.js';
import { sendPayload } from '../respond.js';
import { hasSplices } from '../../wire/wire-body.js';

/** What the record routes share. */
export interface RouteDeps {
  app: FastifyInstance;
  access: AccessDeps;
  basePath: string;
  files: FileStore;
  cacheControl: string;
  secret: Buffer;
}

/** The stored bytes a request's answer needs: the gzip pieces when gzip is the encoding it gets, else the plain bytes. */
export function bodyNeedOf(request: FastifyRequest): BodyNeed {
  return pickEncoding(request.headers['accept-encoding']) === 'gzip' ? 'gzip' : 'plain';
}

/** Sends a record; its ETag changes when its bytes do or when its signed URLs roll over. A large one is charged to `reader`'s key. */
export async function sendRecord(deps: RouteDeps, request: FastifyRequest, reply: FastifyReply, reader: ProjectReader, stored: StoredRead): Promise<void> {
  const now = Date.now();
  const spliced = hasSplices(stored.wire);
  await sendPayload(request, reply, { kind: 'record', item: stored }, {
    etag: spliced ? `${stored.etag}.${deps.files.expiresAt(now)}` : stored.etag,
    cacheControl: deps.cacheControl,
    // A document without an objectKey has no file to sign: its stored URL is still never served.
    splice: (s) => (s.objectKey === undefined ? '' : deps.files.signUrl({ ...s, objectKey: s.objectKey }, now)),
    charge: reader.charge,
  });
}
