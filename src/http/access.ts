/**
 * The one door to the records. A route gets data only through the ProjectReader that
 * `requireAccess` hands it after checking the key, its scope and its rate budget; the reader
 * puts the key's project into every store call, so no route can read across projects. Refusals
 * without a valid key spend their client address's budget (`chargeRefusal`).
 */
import type { FastifyRequest } from 'fastify';
import { recordKey } from '../contract/record-key.js';
import { ServiceError } from '../contract/error-codes.js';
import type {
  AlertCountFilter,
  AlertFilter,
  ApiKeyRecord,
  AlertPosition,
  ChangePosition,
  CompanyFilter,
  CompanyPosition,
  ExecutionFilter,
  ExecutionPosition,
  Store,
  StoredAlertSummary,
  StoredChange,
  StoredCompany,
  StoredExecution,
  WaitOutcome,
} from '../store/store.js';
import type { Scope } from '../store/api-keys.js';
import { ETAG_ONLY, type RecordBytes } from '../wire/record-bytes.js';
import type { FileStore } from '../files/file-store.js';
import { eraseCustomerFiles, type ErasureReport } from '../files/record-erasure.js';
import { fieldsFor } from '../wire/render.js';
import { viewOf, type RecordKind, type View } from '../wire/redaction.js';
import { ALL_CLASS_BITS, FIELD_CLASSES } from '../contract/field-classes.js';
import type { ImportPool } from '../ingest/import-pool.js';
import { headerLines } from './header-lines.js';
import { importStream } from '../ingest/importer.js';
import type { ImportSummary } from '../ingest/import-summary.js';
import type { LineIssue } from '../ingest/envelope.js';
import type { Encoding } from './accept.js';
import type { ApiKeyVerifier } from './api-keys.js';
import type { RateDecision, RateLimiter } from './rate-limit.js';
import { wireEncodingOf } from './respond.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The key that passed the door, for the access log; absent when none did. */
    apiKey?: { id: string; project: string };
    /** A revoked or expired key the request presented: its refusal is logged under the key's project. */
    refusedKey?: { id: string; project: string };
    /** The presented key was looked at (by the door, or for a refusal answered before it). */
    keyChecked?: boolean;
    /** The key's rate budget was spent on this request (by the door, or for a refusal answered before it). */
    keyCharged?: boolean;
  }
}

/** Reads of one project, for one authenticated key. */
export interface ProjectReader {
  readonly project: string;
  readonly keyId: string;
  /** How the key is shown records of a kind: the field classes it has no scope for withheld; undefined when it sees every field. */
  viewOf(kind: RecordKind): View | undefined;
  /** How the change feed names records of a kind to the key: as viewOf, but every class withheld for a kind it may not read. */
  feedViewOf(kind: FeedKind): View | undefined;
  /** Reads read only the stored bytes an answer in `encoding` is rendered from (in the key's view). */
  getCompany(id: string, encoding: Encoding): Promise<RecordBytes | undefined>;
  getAlert(id: string, encoding: Encoding): Promise<RecordBytes | undefined>;
  /** A company's or alert's content ETag alone (undefined when the project has none with this id). */
  etagOf(kind: 'company' | 'alert', id: string): Promise<string | undefined>;
  /** The project's change epoch (see Store.changeEpoch). */
  changeEpoch(): Promise<number>;
  customerKnown(customerId: string): Promise<boolean>;
  listExecutions(customerId: string, filter: ExecutionFilter, after: ExecutionPosition | undefined, limit: number, encoding: Encoding): Promise<readonly StoredExecution[]>;
  /** A page of the project's alert summaries. */
  listAlerts(filter: AlertFilter, after: AlertPosition | undefined, limit: number, encoding: Encoding): Promise<readonly StoredAlertSummary[]>;
  /** How many of the project's alerts match `filter`, by status. */
  countAlerts(filter: AlertCountFilter): Promise<ReadonlyMap<string, number>>;
  listCompanies(filter: CompanyFilter, after: CompanyPosition | undefined, limit: number, encoding: Encoding): Promise<readonly StoredCompany[]>;
  /** A page of the project's change feed, and a wait for its next change (see Store). */
  listChanges(after: ChangePosition | undefined, limit: number): Promise<StoredChange[]>;
  waitForChanges(after: ChangePosition | undefined, ms: number, signal?: AbortSignal): Promise<WaitOutcome>;
  /** Erases a customer of the project with its document files (the records:erase scope); a dry run only counts. */
  eraseCustomer(customerId: string, dryRun: boolean): Promise<ErasureReport>;
  /**
   * Imports NDJSON envelopes into the project (the records:write scope), each batch committed whole:
   * a record of another project is a rejected line, like an invalid one, and never stored.
   */
  importRecords(lines: AsyncIterable<Buffer>, onReject: (lineNo: number, issues: readonly LineIssue[]) => void): Promise<ImportSummary>;
  /** Debits the key's rate budget for what an answer cost beyond the token taken at the door. */
  readonly charge: (tokens: number) => void;
}

/** Everything the door needs. */
export interface AccessDeps {
  store: Store;
  limiter: RateLimiter;
  keys: ApiKeyVerifier;
  /** Where the project's document files are deleted when a customer is erased. */
  files: FileStore;
  /** zlib level of the gzip bytes stored with pushed records; null stores none (default 6). */
  gzipLevel?: number | null;
  /** Worker threads that prepare pushed lines; without them the serving thread does. */
  ingestPool?: ImportPool;
}

const BEARER = /^Bearer +([^\s]+) *$/i;

/** The key an Authorization header presents: undefined without the header, null when it is not one `Bearer <key>` line. */
function presentedKey(request: FastifyRequest): string | null | undefined {
  const header = request.headers.authorization;
  if (header === undefined) return undefined;
  // Two keys in one request are no one's: a proxy or log may act on a line other than the first Node keeps.
  if (headerLines(request.raw.rawHeaders, 'authorization') !== 1) return null;
  return BEARER.exec(header)?.[1] ?? null;
}

/** Authenticates the request's key, checks `scope` and the rate budget, and returns the project's reader. */
export async function requireAccess(deps: AccessDeps, request: FastifyRequest, scope: Scope, setHeader: (name: string, value: string) => void): Promise<ProjectReader> {
  request.keyChecked = true;
  const presented = presentedKey(request);
  if (presented === undefined) throw new ServiceError('unauthorized', 'an API key is required: send Authorization: Bearer <key>', [], challenge);
  if (presented === null) throw new ServiceError('unauthorized', 'the Authorization header must be one line: Bearer <key>', [], challenge);
  const verdict = await deps.keys.verify(presented);
  if (!verdict.ok) {
    if (verdict.key !== undefined) request.refusedKey = { id: verdict.key.id, project: verdict.key.project };
    const why = verdict.reason === 'revoked' ? 'has been revoked' : verdict.reason === 'expired' ? 'has expired' : 'is not valid';
    throw new ServiceError('unauthorized', `the API key ${why}`, [], challenge);
  }
  const key = verdict.key;
  const door = doorOf(deps, key);
  request.apiKey = door.identity;
  request.keyCharged = true;
  const rate = await deps.limiter.take(key.id);
  setHeader('ratelimit-limit', String(rate.limit));
  setHeader('ratelimit-remaining', String(rate.remaining));
  setHeader('ratelimit-reset', String(rate.reset));
  if (!rate.allowed) {
    throw keyBudgetSpent(rate);
  }
  if (!key.scopes.includes(scope)) {
    throw new ServiceError('forbidden', `the API key lacks the ${scope} scope`);
  }
  return door.reader;
}

const challenge = { 'www-authenticate': 'Bearer realm="compliance-read"' };

/** The answer to a key whose rate budget is spent, by a read or a refusal alike. */
function keyBudgetSpent(rate: RateDecision): ServiceError {
  return new ServiceError('rate_limited', 'too many requests for this API key', [], { 'retry-after': String(rate.retryAfter) });
}

/** What the door hands on for one key: made once per key record the verifier keeps, not per request. */
interface KeyDoor {
  identity: { readonly id: string; readonly project: string };
  reader: ProjectReader;
}

const doors = new WeakMap<AccessDeps, WeakMap<ApiKeyRecord, KeyDoor>>();

function doorOf(deps: AccessDeps, key: ApiKeyRecord): KeyDoor {
  let ofDeps = doors.get(deps);
  if (ofDeps === undefined) doors.set(deps, (ofDeps = new WeakMap()));
  let door = ofDeps.get(key);
  if (door === undefined) {
    const reader = projectReader(deps, key.project, key.id, withheldBits(key.scopes), unreadKinds(key.scopes));
    door = { identity: Object.freeze({ id: key.id, project: key.project }), reader: Object.freeze(reader) };
    ofDeps.set(key, door);
  }
  return door;
}

/** The kinds of record the change feed names, each with the scope that reads it (a customer: as a company). */
export type FeedKind = 'company' | 'alert' | 'execution';
const READ_SCOPES: Record<FeedKind, Scope> = { company: 'companies:read', alert: 'alerts:read', execution: 'executions:read' };

/** The kinds whose read scope `scopes` lacks. */
function unreadKinds(scopes: readonly string[]): ReadonlySet<FeedKind> {
  return new Set((Object.keys(READ_SCOPES) as FeedKind[]).filter((kind) => !scopes.includes(READ_SCOPES[kind])));
}

/** The bits of the field classes whose scope `scopes` lacks. */
export function withheldBits(scopes: readonly string[]): number {
  let bits = 0;
  for (const c of Object.values(FIELD_CLASSES)) if (!scopes.includes(c.scope)) bits |= c.bit;
  return bits;
}

/**
 * For a refusal answered before the door (no such route, a method or an Accept the route does not
 * take): the key it presented, looked up once, so a valid key's refusal is its project's and spends
 * no address budget, and a revoked or expired one's is logged under its project too.
 */
export async function identifyPresentedKey(keys: Pick<ApiKeyVerifier, 'verify'>, request: FastifyRequest): Promise<void> {
  if (request.keyChecked === true) return;
  request.keyChecked = true;
  const presented = presentedKey(request);
  if (presented === undefined || presented === null) return;
  const verdict = await keys.verify(presented);
  if (verdict.ok) request.apiKey = { id: verdict.key.id, project: verdict.key.project };
  else if (verdict.key !== undefined) request.refusedKey = { id: verdict.key.id, project: verdict.key.project };
}

/**
 * The budget of refused answers. A refusal of a request that no valid key passed (401, or a
 * 400/404/405/406 answered before an operation's key check) takes a token from its address's
 * bucket; with none left it is answered 429 instead. A request with a valid key is never charged
 * its address's budget, so a flood from a shared address (a proxy, a NAT) cannot lock out the keys
 * behind it: it spends its key's own, also when refused before the door (every refusal is an
 * access log entry of the key's project).
 */
export async function chargeRefusal(refusals: RateLimiter, keyBudgets: RateLimiter, request: FastifyRequest, refusal: ServiceError): Promise<ServiceError> {
  if (refusal.status < 400 || refusal.status >= 500 || refusal.code === 'rate_limited') return refusal;
  if (request.apiKey !== undefined) {
    if (request.keyCharged === true) return refusal;
    request.keyCharged = true;
    const rate = await keyBudgets.take(request.apiKey.id);
    if (rate.allowed) return refusal;
    return keyBudgetSpent(rate);
  }
  const rate = await refusals.take(addressBudgetKey(request.ip ?? ''));
  if (rate.allowed) return refusal;
  return new ServiceError('rate_limited', 'too many refused requests from this address; retry later', [], { 'retry-after': String(rate.retryAfter) });
}

/**
 * The bucket of a client address: `addr:` and the address, an IPv6 address by its /64 (what one
 * host or site is usually given whole, so rotating within it earns no new budget).
 */
export function addressBudgetKey(ip: string): string {
  if (!ip.includes(':')) return `addr:${ip}`;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped !== null) return `addr:${mapped[1]}`;
  const [head = '', tail] = ip.split('%')[0]!.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups = [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `addr:${groups
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}

/** A reader bound to one project: the project is an argument of every store call it makes. */
function projectReader({ store, limiter, files, gzipLevel, ingestPool }: AccessDeps, project: string, keyId: string, withheld: number, unread: ReadonlySet<FeedKind>): ProjectReader {
  const fields = (kind: RecordKind, encoding: Encoding) => fieldsFor(wireEncodingOf(encoding), viewOf(kind, withheld) !== undefined);
  return {
    project,
    keyId,
    viewOf: (kind) => viewOf(kind, withheld),
    // A kind the key may not read is named by a keyed etag too: a plain content hash would let it confirm guesses of bytes it cannot see.
    feedViewOf: (kind) => viewOf(kind, unread.has(kind) ? ALL_CLASS_BITS : withheld),
    getCompany: (id, encoding) => store.getCompany(project, recordKey(id), fields('company', encoding)),
    getAlert: (id, encoding) => store.getAlert(project, recordKey(id), fields('alert', encoding)),
    etagOf: async (kind, id) => (await (kind === 'company' ? store.getCompany(project, recordKey(id), ETAG_ONLY) : store.getAlert(project, recordKey(id), ETAG_ONLY)))?.etag,
    changeEpoch: () => store.changeEpoch(project),
    customerKnown: (customerId) => store.customerKnown(project, recordKey(customerId)),
    listExecutions: (customerId, filter, after, limit, encoding) =>
      store.listExecutions(project, recordKey(customerId), filter, after, limit, fields('execution', encoding)),
    listAlerts: (filter, after, limit, encoding) => store.listAlerts(project, filter, after, limit, fields('alertSummary', encoding)),
    countAlerts: (filter) => store.countAlerts(project, filter),
    listCompanies: (filter, after, limit, encoding) => store.listCompanies(project, filter, after, limit, fieldsFor(wireEncodingOf(encoding))),
    listChanges: (after, limit) => store.listChanges(project, after, limit),
    waitForChanges: (after, ms, signal) => store.waitForChanges(project, after, ms, signal),
    eraseCustomer: (customerId, dryRun) => eraseCustomerFiles(store, files, project, recordKey(customerId), dryRun),
    // Every rejected line is reported, however many: the body's size bounds them.
    importRecords: (lines, onReject) => importStream(store, 'the request body', lines, { project, onReject, gzipLevel, maxRejects: Number.MAX_SAFE_INTEGER, pool: ingestPool }),
    charge: (tokens) => limiter.charge(keyId, tokens),
  };
}
