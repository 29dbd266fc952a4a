/** Sends one stored record, with fresh signed URLs in place of its stored document URLs. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError } from '../../contract/error-codes.js';
import { isSafeObjectKey, projectSegment, type FileStore } from '../../files/file-store.js';
import type { RecordBytes } from '../../wire/record-bytes.js';
import { isSpliced } from '../../wire/render.js';
import type { RecordKind } from '../../wire/redaction.js';
import { FIELD_CLASSES } from '../../contract/field-classes.js';
import type { AccessDeps, ProjectReader } from '../access.js';
import type { Encoding } from '../accept.js';
import { viewEtag } from '../view-etag.js';
import { sendAnswer, sendSent } from '../respond.js';
import { answerKey, madeFrom, type AnswerCache, type KeptAnswer } from '../answer-cache.js';

/** What the record routes share. */
export interface RouteDeps {
  app: FastifyInstance;
  access: AccessDeps;
  basePath: string;
  files: FileStore;
  cacheControl: string;
  secret: Buffer;
  /** Record answers kept as sent, served again while their ETag holds. */
  answers: AnswerCache;
}

/**
 * Answers GET of one company or alert by id: a kept answer when the store says the record is
 * unchanged, else the record read and rendered (and kept for the next reader). Unchanged is the
 * project's change epoch the same as when the answer was last found current (one stamp check per
 * project and turn, shared by its readers); when the epoch moved, the record's ETag alone.
 */
export async function serveRecord(deps: RouteDeps, request: FastifyRequest, reply: FastifyReply, reader: ProjectReader, kind: 'company' | 'alert', id: string, encoding: Encoding): Promise<void> {
  const key = answerKey(kind, reader.project, id, reader.viewOf(kind)?.bits ?? 0, encoding);
  const kept = deps.answers.get(key);
  // Found before anything of the record is read: a change after it moves the epoch again.
  const epoch = deps.answers.enabled ? await reader.changeEpoch() : undefined;
  if (kept !== undefined) {
    const expires = kept.expires === undefined ? undefined : deps.files.expiresAt(Date.now());
    if (kept.epoch === epoch && kept.expires === expires) return sendKept(deps, request, reply, reader, kind, kept);
    const etag = await reader.etagOf(kind, id);
    if (etag === undefined) deps.answers.delete(key);
    else if (madeFrom(kept, etag, expires)) {
      if (epoch !== kept.epoch) deps.answers.set(key, { ...kept, epoch });
      return sendKept(deps, request, reply, reader, kind, kept);
    }
  }
  if (deps.answers.enabled) deps.answers.observe(kind, kept === undefined ? 'miss' : 'stale');
  const stored = await (kind === 'company' ? reader.getCompany(id, encoding) : reader.getAlert(id, encoding));
  if (stored === undefined) throw new ServiceError('not_found', `no ${kind} with this id`);
  await sendRecord(deps, request, reply, reader, stored, encoding, kind, key, epoch);
}

function sendKept(deps: RouteDeps, request: FastifyRequest, reply: FastifyReply, reader: ProjectReader, kind: RecordKind, kept: KeptAnswer): Promise<void> {
  deps.answers.observe(kind, 'hit');
  return sendSent(request, reply, kept, { cacheControl: deps.cacheControl, charge: reader.charge });
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
  /** Where the answer is kept for the next reader (by-id reads); not kept when absent. */
  keepAs?: string,
  /** The project's change epoch found before `stored` was read, kept with the answer. */
  epoch?: number,
): Promise<void> {
  const project = reader.project;
  const now = Date.now();
  const spliced = isSpliced(stored);
  const expires = spliced ? deps.files.expiresAt(now) : undefined;
  if (keepAs !== undefined) {
    // Many readers of one record in the same moment: the first one's answer serves the rest.
    const kept = deps.answers.current(keepAs, stored.etag, expires);
    if (kept !== undefined) return sendSent(request, reply, kept, { cacheControl: deps.cacheControl, charge: reader.charge });
  }
  const projectHasFiles = spliced && projectSegment(project) !== undefined;
  const view = reader.viewOf(kind);
  const tag = viewEtag(deps.secret, stored.etag, view);
  // A signed URL names its file: a key not shown personal data gets one without the name.
  const named = view === undefined || (view.bits & FIELD_CLASSES.pii.bit) === 0;
  await sendAnswer(request, reply, stored, encoding, {
    etag: expires !== undefined ? `${tag}.${expires}` : tag,
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
    keep: keepAs === undefined || !deps.answers.enabled ? undefined : (sent) => deps.answers.set(keepAs, { ...sent, etag: stored.etag, expires, epoch }),
  });
}
