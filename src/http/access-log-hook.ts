/** Records every answer of a route under the base path (reads and refused attempts), and every unrouted request, in the access log. */
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest, onResponseHookHandler, onSendHookHandler } from 'fastify';
import { recordKey } from '../contract/record-key.js';
import { ANSWER_RECORD_CHARS, MAX_ANSWER_RECORDS, REFUSED_RECORD_ID_CHARS, type AccessLogEntry } from '../access-log/access-log.js';
import type { AccessLogWriter } from '../access-log/writer.js';
import { redactApiKeys } from './log-redaction.js';
import { hooksOf } from './route-hooks.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The lookup keys of the records a list or feed answer returned, for the access log. */
    answerRecords?: readonly string[];
    /** Those of them its headers name too (a HEAD answer's only ones). */
    headerRecords?: readonly string[];
    /** Set once the request's entry is written, so an answer cut short and then failing is written once. */
    accessLogged?: boolean;
    /** Every byte of a streamed body was handed to the connection (its stream's end comes later). */
    bodyHandedOver?: boolean;
  }
}

/**
 * Says every byte of a streamed answer was handed to its connection: a client that has them all may
 * close before the stream's own end finishes the answer, and that is no hang-up.
 */
export function noteBodyHandedOver(request: FastifyRequest): void {
  request.bodyHandedOver = true;
}

/**
 * Names the records an answer returns (a list page, a feed page), so "who saw record X" finds this
 * read too; `inHeaders` are those its headers name as well (a next page's cursor carries its last
 * record's id), which a HEAD answer shows without a body.
 */
export function noteAnswerRecords(request: FastifyRequest, keys: readonly string[], inHeaders: readonly string[] = []): void {
  request.answerRecords = keys;
  request.headerRecords = inHeaders;
}

/**
 * The status written for an answer its client did not wait for: the connection closed before the
 * answer was sent or while it was being written (the convention of nginx and its peers).
 */
export const CLIENT_CLOSED = 499;

/** The record a request asked for: the id, customerId or objectKey path parameter. */
function recordOf(request: FastifyRequest): string | null {
  const params = (request.params ?? {}) as Record<string, string | undefined>;
  const id = params.id ?? params.customerId ?? params.objectKey;
  // A client may name anything as an id, a key among them: the log keeps only the key's id.
  return id === undefined ? null : redactApiKeys(recordKey(id)).slice(0, 512);
}

/**
 * The keys of the records an answer returned, bounded: none for a refusal; for a HEAD answer (it
 * sends no records) only those its headers name; undefined when there are none.
 */
function returnedOf(request: FastifyRequest, status: number): readonly string[] | undefined {
  const keys = request.method === 'HEAD' ? request.headerRecords : request.answerRecords;
  if (keys === undefined || keys.length === 0 || status >= 400) return undefined;
  // Within bounds (every page is) the answer's own array goes on: a page served again keeps one serialization of it.
  if (keys.length <= MAX_ANSWER_RECORDS && keys.every((k) => k.length <= ANSWER_RECORD_CHARS)) return keys;
  return keys.slice(0, MAX_ANSWER_RECORDS).map((k) => (k.length > ANSWER_RECORD_CHARS ? k.slice(0, ANSWER_RECORD_CHARS) : k));
}

/**
 * The status an answer Node calls finished is logged with. Node finishes an answer whose connection
 * failed under it (the client reset it mid-answer) too; then the socket holds the error.
 */
function loggedStatus(request: FastifyRequest, reply: FastifyReply): number {
  return request.raw.socket?.errored != null ? CLIENT_CLOSED : reply.statusCode;
}

let lastMs = 0;
let lastIso = '';
let second = -1;
let secondPrefix = '';
/** The time now as ISO 8601: formatted in full once per second, the milliseconds appended per answer. */
function isoNow(): string {
  const ms = Date.now();
  if (ms !== lastMs) {
    lastMs = ms;
    const within = ms % 1000;
    if (ms - within !== second) {
      second = ms - within;
      secondPrefix = new Date(second).toISOString().slice(0, 20);
    }
    lastIso = `${secondPrefix}${within < 10 ? '00' : within < 100 ? '0' : ''}${within}Z`;
  }
  return lastIso;
}

/** Records a request refused before routing (a URL the router cannot read), for which no route's or 404 handler's hook runs. */
export type UnroutedLog = (request: FastifyRequest, reply: FastifyReply) => void;

/**
 * Adds the hooks that feed the writer: on each route under the base path, chosen when the route is
 * added (so every spelling of a URL that reaches the route is recorded), and for answers that reached
 * no route at all, whatever their URL. An answer is written when it is finished (onResponse); one
 * whose connection closed before that never finishes, so its send notes the close and writes it then.
 */
export function accessLogHook(app: FastifyInstance, basePath: string, writer: AccessLogWriter): UnroutedLog {
  const skip = new Set([`${basePath}/openapi.json`]);
  const prefix = `${basePath}/`;
  // Node reads a socket's peer address lazily and cannot once the socket is gone: read it while
  // the connection is new, so a client that hangs up before its answer is logged is still named.
  app.server.on('connection', (socket: Socket) => void socket.remoteAddress);
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith(prefix) || skip.has(route.url)) return;
    const url = route.url;
    // A callback hook, like the server's others: no promise per request.
    const logged: onResponseHookHandler = (request, reply, done) => {
      record(request, loggedStatus(request, reply), reply.statusCode, url);
      done();
    };
    const sending: onSendHookHandler<unknown> = (request, reply, payload, done) => {
      watchClose(request, reply, url);
      done(null, payload);
    };
    // New arrays: the HEAD route is cloned from these options and gets its own onRoute call.
    route.onResponse = [...hooksOf(route.onResponse), logged];
    route.onSend = [...hooksOf(route.onSend), sending];
  });
  app.addHook('onResponse', (request, reply, done) => {
    if (request.is404) record(request, loggedStatus(request, reply), reply.statusCode, 'unmatched');
    done();
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.is404) watchClose(request, reply, 'unmatched');
    done(null, payload);
  });
  /** Writes the entry of an answer whose connection closes before it is finished, if it does. */
  const watchClose = (request: FastifyRequest, reply: FastifyReply, route: string): void => {
    const res = reply.raw;
    // Closed before anything was sent: nothing of the answer reached the client.
    if (res.destroyed) {
      record(request, CLIENT_CLOSED, CLIENT_CLOSED, route);
      return;
    }
    res.once('close', () => {
      if (!res.writableFinished) record(request, request.bodyHandedOver === true ? reply.statusCode : CLIENT_CLOSED, reply.statusCode, route);
    });
  };
  /** `status` is what is logged; `answered`, the status of the answer itself, decides what it names. */
  const record = (request: FastifyRequest, status: number, answered: number, route: string): void => {
    if (request.accessLogged === true) return;
    request.accessLogged = true;
    // A revoked or expired key is still known: its refusal belongs to the key's project.
    const key = request.apiKey ?? request.refusedKey;
    const recordId = recordOf(request);
    const entry: AccessLogEntry = {
      at: isoNow(),
      keyId: key?.id ?? null,
      project: key?.project ?? request.accessProject ?? '',
      route,
      // A refused request names whatever it likes: only the start of its id is kept.
      recordId: recordId !== null && answered >= 400 ? recordId.slice(0, REFUSED_RECORD_ID_CHARS) : recordId,
      status,
      requestId: redactApiKeys(request.id),
      client: request.ip ?? '',
    };
    // Of an answer cut short, what it carried is named: some of it may have reached the client.
    const returned = returnedOf(request, answered);
    if (returned !== undefined) entry.records = returned;
    // A spent budget's refusals are counted, one entry per key and address per interval.
    if (status === 429) writer.summarize(entry);
    else writer.append(entry);
  };
  return (request, reply) => {
    reply.raw.once('finish', () => record(request, loggedStatus(request, reply), reply.statusCode, 'unmatched'));
    watchClose(request, reply, 'unmatched');
  };
}
