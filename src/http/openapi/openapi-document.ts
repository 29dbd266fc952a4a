/**
 * The service's OpenAPI 3.1 document, generated from the contract (OPERATIONS, the TypeBox
 * schemas, ERROR_CODES): nothing here restates a field, parameter or code, so the document
 * cannot drift from what the service validates and answers.
 */
import type { Alert } from '../../contract/alert.js';
import { alertCountsOf } from '../../contract/alert-counts.js';
import { alertSummaryOf } from '../../contract/alert-summary.js';
import { exampleChanges, fullAlert, fullCompany, fullExecution } from '../../contract/examples.js';
import { companySummaryOf } from '../../contract/company-summary.js';
import type { CompanyDetails } from '../../contract/company.js';
import { FIELD_CLASSES } from '../../contract/field-classes.js';
import { OPERATIONS, WRITE_OPERATIONS, type Operation, type OperationName } from '../../contract/operations.js';
import { SCOPES } from '../../store/api-keys.js';
import { openApiInfo } from './openapi-info.js';
import {
  errorResponses,
  headerComponents,
  notModifiedHeaders,
  BODY_ERROR_STATUSES,
  READ_ERROR_STATUSES,
  responseComponents,
  successHeaders,
} from './openapi-responses.js';
import { schemaComponents, type JsonSchema, type SchemaComponents } from './schema-components.js';

/** What the document depends on beyond the contract. */
export interface OpenApiOptions {
  /** Path prefix of the API, e.g. `/v1` (may be empty). */
  basePath: string;
  /** External origin, e.g. `https://compliance.example.com`; without it the server URL is relative. */
  serverUrl?: string;
  /** Version of this implementation (package.json), shown as info.version. */
  version: string;
  /** Whether the service serves document files itself (local file store); default true. */
  fileRoute?: boolean;
}

/** The OpenAPI document path of the document itself, under the base path. */
export const OPENAPI_JSON_PATH = '/openapi.json';

const SECURITY_SCHEME = 'bearerAuth';

// The contract's example records (valid against its schemas, which the tests check) show on
// the reference page in place of Swagger UI's made-up values.
const EXAMPLES: Readonly<Record<OperationName, () => unknown>> = {
  getCompanyDetails: fullCompany,
  listCompanies: () => [companySummaryOf(fullCompany() as CompanyDetails)],
  getCustomerScenarioExecutions: () => [fullExecution()],
  getAlert: fullAlert,
  listAlerts: () => [alertSummaryOf(fullAlert() as unknown as Alert)],
  countAlerts: () => alertCountsOf(new Map([['Open', 12], ['Under Investigation', 3], ['Escalated', 1]])),
  listChanges: exampleChanges,
};

/** Generates the OpenAPI 3.1.0 document of the service. */
export function openApiDocument(options: OpenApiOptions): Record<string, unknown> {
  const components = schemaComponents();
  const paths: Record<string, unknown> = {};
  for (const [name, op] of Object.entries(OPERATIONS) as [OperationName, Operation][]) {
    paths[op.path] = { get: readOperation(op, components, EXAMPLES[name]()) };
  }
  for (const op of Object.values(WRITE_OPERATIONS) as Operation[]) paths[op.path] = { post: writeOperation(op, components) };
  if (options.fileRoute ?? true) paths['/files/{project}/{objectKey}'] = { get: fileDownloadOperation() };
  paths[OPENAPI_JSON_PATH] = { get: documentOperation() };
  const server = `${(options.serverUrl ?? '').replace(/\/+$/, '')}${options.basePath}`;
  return {
    openapi: '3.1.0',
    info: openApiInfo(options),
    servers: [{ url: server === '' ? '/' : server, description: 'this service' }],
    security: [{ [SECURITY_SCHEME]: [] }],
    tags: tags(),
    paths,
    components: {
      // Sorted so the reference page lists them alphabetically; `use` above has met every part by now.
      schemas: Object.fromEntries(Object.entries(components.schemas).sort(([a], [b]) => a.localeCompare(b))),
      responses: responseComponents([...READ_ERROR_STATUSES, ...BODY_ERROR_STATUSES]),
      headers: headerComponents(),
      securitySchemes: {
        [SECURITY_SCHEME]: {
          type: 'http',
          scheme: 'bearer',
          description: [
            "An API key, one per project: a key reads only its project's records.",
            `Its scopes (${OPERATION_SCOPES.map((s) => `\`${s}\``).join(', ')}) say which operations it may call;`,
            `${DATA_SCOPES.map((s) => `\`${s}\``).join(', ')} which fields it is shown: without one, that class's fields are masked (null, "[redacted]" or []) in every record and alert summary it reads, and the ETag differs.`,
            'Created by an operator with `compliance-read keys create --project <id> [--scopes ...]`; shown once.',
          ].join(' '),
        },
      },
    },
  };
}

/** The tag of an operation: the resource part of its scope (`companies:read` -> `companies`). */
function tagOf(scope: string): string {
  return scope.split(':')[0]!;
}

const DATA_SCOPES: readonly string[] = Object.values(FIELD_CLASSES).map((c) => c.scope);
// The scopes that open operations (each a tag); the data scopes choose fields, not operations.
const OPERATION_SCOPES = SCOPES.filter((s) => !DATA_SCOPES.includes(s));

function tags(): { name: string; description: string }[] {
  return [
    ...OPERATION_SCOPES.map((scope) => ({ name: tagOf(scope), description: `Operations that need the \`${scope}\` scope` })),
    { name: 'files', description: 'Document files behind signed URLs (no API key)' },
    { name: 'meta', description: 'This document' },
  ];
}

/** One read operation: scope, parameters, 200/304 and every error response. */
function readOperation(op: Operation, components: SchemaComponents, example: unknown): Record<string, unknown> {
  const response = components.use(op.response);
  // The operation's Link header says when it is sent: on a list's pages but the last, on every answer of the feed.
  const link = op.headers?.Link;
  const description = [
    `Needs an API key with the \`${op.scope}\` scope.`,
    link !== undefined ? `Paged by the \`Link\` header: ${link.description}.` : '',
  ].filter((s) => s !== '').join(' ');
  return {
    operationId: op.operationId,
    summary: op.summary,
    description,
    tags: [tagOf(op.scope)],
    security: [{ [SECURITY_SCHEME]: [op.scope] }],
    parameters: [...parameters(op, components), ifNoneMatch()],
    responses: {
      '200': {
        description: responseDescription(op.response as JsonSchema),
        headers: successHeaders(op.headers),
        content: { 'application/json': { schema: response, example } },
      },
      '304': { description: 'Not Modified: the `If-None-Match` validator still matches; no body', headers: notModifiedHeaders() },
      ...errorResponses(READ_ERROR_STATUSES),
    },
  };
}

/** One operation that changes records: POST without a body, its scope, 200 and every error response. */
function writeOperation(op: Operation, components: SchemaComponents): Record<string, unknown> {
  const body = op.requestBody;
  return {
    operationId: op.operationId,
    summary: op.summary,
    description: `Needs an API key with the \`${op.scope}\` scope, which a key has only when it was created naming it. ${body === undefined ? 'No request body; the' : 'The'} answer is never cached.`,
    tags: [tagOf(op.scope)],
    security: [{ [SECURITY_SCHEME]: [op.scope] }],
    parameters: parameters(op, components),
    ...(body === undefined
      ? {}
      : { requestBody: { required: true, description: body.description, content: Object.fromEntries(body.mediaTypes.map((t) => [t, { schema: { type: 'string' } }])) } }),
    responses: {
      '200': {
        description: responseDescription(op.response as JsonSchema),
        headers: { 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' } },
        content: { 'application/json': { schema: components.use(op.response) } },
      },
      ...errorResponses(body === undefined ? READ_ERROR_STATUSES : [...READ_ERROR_STATUSES, ...BODY_ERROR_STATUSES].sort((a, b) => a - b)),
    },
  };
}

/** Path parameters (required) then query parameters; repeatable ones are arrays in form style. */
function parameters(op: Operation, components: SchemaComponents): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const [name, p] of Object.entries(op.pathParameters)) {
    out.push({ name, in: 'path', required: true, description: p.description, schema: components.use(p.schema) });
  }
  for (const [name, q] of Object.entries(op.query)) {
    const schema = components.use(q.schema);
    out.push(
      q.repeatable
        ? { name, in: 'query', required: false, description: q.description, style: 'form', explode: true, schema: { type: 'array', items: schema } }
        : { name, in: 'query', required: false, description: q.description, schema },
    );
  }
  return out;
}

function ifNoneMatch(): Record<string, unknown> {
  return {
    name: 'If-None-Match',
    in: 'header',
    required: false,
    description: 'an ETag of an earlier answer; when it still matches the answer is 304 with no body',
    schema: { type: 'string' },
  };
}

/** The 200 description: the response schema's own description, or its items' for an array. */
function responseDescription(schema: JsonSchema): string {
  if (typeof schema.description === 'string') return schema.description;
  const items = schema.items as JsonSchema | undefined;
  if (items !== undefined && typeof items.description === 'string') return `An array; each item: ${items.description}`;
  return 'OK';
}

/** The signed file route of the local file store: the signature is the credential. */
function fileDownloadOperation(): Record<string, unknown> {
  const query = (name: string, required: boolean, description: string) => ({ name, in: 'query', required, description, schema: { type: 'string' } });
  const errorBody = { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } };
  const text = (description: string) => ({ description, schema: { type: 'string' } });
  return {
    operationId: 'downloadFile',
    summary: 'Download a document file',
    description: [
      'The address a record\'s `presignedUrl` holds. No API key: the signature is the credential; it covers',
      'the project, objectKey, expiry, filename and mimetype, so none can be changed. Use the URL as given.',
    ].join(' '),
    tags: ['files'],
    security: [],
    parameters: [
      { name: 'project', in: 'path', required: true, description: 'the project the file belongs to (percent-encoded)', schema: { type: 'string' } },
      { name: 'objectKey', in: 'path', required: true, description: 'the file\'s object key', schema: { type: 'string' } },
      query('expires', true, 'expiry, unix seconds'),
      query('filename', false, 'name the file is saved under (Content-Disposition)'),
      query('mimetype', false, 'media type the file is served as'),
      query('sig', true, 'signature of the other values'),
    ],
    responses: {
      '200': {
        description: 'The file, as an attachment',
        headers: {
          'Content-Disposition': text('attachment, with the signed filename'),
          'Cache-Control': text('private, cacheable until the URL expires'),
          'Content-Security-Policy': text("default-src 'none'; sandbox"),
          'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' },
        },
        content: { '*/*': { schema: {} } },
      },
      '403': { description: '`forbidden`: the URL was tampered with (a value or the signature altered) or has expired', content: errorBody },
      '404': { description: '`not_found`: the signature is good but no such file is stored', content: errorBody },
      default: { $ref: '#/components/responses/Error' },
    },
  };
}

/** This document, served unauthenticated beside the operations. */
function documentOperation(): Record<string, unknown> {
  return {
    operationId: 'getOpenApiDocument',
    summary: 'Get this OpenAPI document',
    description: 'No API key needed. The same document drives the reference page at `/docs`.',
    tags: ['meta'],
    security: [],
    responses: {
      '200': { description: 'The OpenAPI 3.1 document', content: { 'application/json': { schema: { type: 'object' } } } },
      default: { $ref: '#/components/responses/Error' },
    },
  };
}
