import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { SCHEMA_COMPONENTS } from '../../contract/components.js';
import { ERROR_CODES } from '../../contract/error-codes.js';
import {
  fullAlert, fullCompany, fullExecution, minimalAlert, minimalCompany, minimalExecution,
} from '../../contract/examples.js';
import { addContractFormats, isDateTime } from '../../contract/formats.js';
import { OPERATIONS, WRITE_OPERATIONS, type Operation } from '../../contract/operations.js';
import { validateRecord, type RecordKind } from '../../contract/validators.js';
import { SCOPES } from '../../store/api-keys.js';
import { openApiDocument } from './openapi-document.js';
import { READ_ERROR_STATUSES } from './openapi-responses.js';
import { ENUM_SCHEMAS } from '../../contract/enums.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const doc = openApiDocument({ basePath: '/v1', version: '1.2.3' }) as Json;
const ops = Object.values(OPERATIONS) as Operation[];

/** Follows a local `$ref` (`#/a/b`) within the document. */
function deref(node: Json): Json {
  if (typeof node.$ref !== 'string') return node;
  return (node.$ref as string).slice(2).split('/').reduce<Json>((at, key) => at[key], doc);
}

function walk(node: unknown, visit: (node: Json, path: string) => void, path = ''): void {
  if (node === null || typeof node !== 'object') return;
  visit(node as Json, path);
  for (const [key, value] of Object.entries(node)) walk(value, visit, `${path}/${key}`);
}

describe('openApiDocument', () => {
  it('validates as an OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate(structuredClone(doc));
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe('3.1.0');
  });

  it('is refused by the validator once broken, so the check above has teeth', async () => {
    const broken = structuredClone(doc);
    delete broken.info;
    broken.paths['/alerts/{id}'].get.responses['200'].content['application/json'].schema = { $ref: '#/components/schemas/Nope' };
    expect((await new Validator().validate(broken)).valid).toBe(false);
  });

  it('has the erase operation as a POST needing records:erase, answering ErasureResult, and no read operation asking for that scope', () => {
    const op = WRITE_OPERATIONS.eraseCustomer;
    const post = doc.paths[op.path]?.post as Json;
    expect(post.operationId).toBe('eraseCustomer');
    expect(post.security).toEqual([{ bearerAuth: ['records:erase'] }]);
    expect(post.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ErasureResult' });
    expect((post.parameters as Json[]).map((x) => x.name)).toEqual(['customerId', 'dryRun']);
    expect(doc.paths[op.path].get).toBeUndefined();
    for (const read of ops) expect(read.scope).not.toBe('records:erase');
  });

  it('has the push as a POST needing records:write, taking an NDJSON body, answering ImportResult, with 413 and 415', () => {
    const post = doc.paths[WRITE_OPERATIONS.pushRecords.path]?.post as Json;
    expect(post.operationId).toBe('pushRecords');
    expect(post.security).toEqual([{ bearerAuth: ['records:write'] }]);
    expect(Object.keys(post.requestBody.content)).toEqual(['application/x-ndjson', 'application/jsonl']);
    expect(post.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ImportResult' });
    expect(post.responses['413']).toEqual({ $ref: '#/components/responses/Error413' });
    expect(post.responses['415']).toBeDefined();
    expect(doc.paths[WRITE_OPERATIONS.eraseCustomer.path].post.requestBody).toBeUndefined();
    expect(doc.paths[WRITE_OPERATIONS.eraseCustomer.path].post.responses['413']).toBeUndefined();
  });

  it('has every operation of OPERATIONS at its path with its id, summary and parameters', () => {
    for (const op of ops) {
      const get = doc.paths[op.path]?.get as Json;
      expect(get, op.operationId).toBeDefined();
      expect(get.operationId).toBe(op.operationId);
      expect(get.summary).toBe(op.summary);
      const params = (get.parameters as Json[]).map(deref);
      for (const name of Object.keys(op.pathParameters)) {
        expect(params).toContainEqual(expect.objectContaining({ name, in: 'path', required: true }));
      }
      for (const [name, q] of Object.entries(op.query)) {
        const p = params.find((x) => x.name === name && x.in === 'query');
        expect(p, `${op.operationId} ${name}`).toBeDefined();
        expect(p!.description).toBe(q.description);
        if (q.repeatable) expect(p).toMatchObject({ style: 'form', explode: true, schema: { type: 'array' } });
      }
      const declared = params.filter((p) => p.in !== 'header').map((p) => p.name).sort();
      expect(declared).toEqual([...Object.keys(op.pathParameters), ...Object.keys(op.query)].sort());
    }
  });

  it('gives enumerated query parameters their enumeration by reference', () => {
    const get = doc.paths['/customers/{customerId}/scenario-executions'].get as Json;
    const status = (get.parameters as Json[]).find((p) => p.name === 'status')!;
    expect(status.schema.items).toEqual({ $ref: '#/components/schemas/ExecutionStatus' });
    const limit = (get.parameters as Json[]).find((p) => p.name === 'limit')!;
    expect(limit.schema).toMatchObject({ type: 'integer', minimum: 1 });
  });

  it('documents 200 with its schema and headers, 304, and explicit and default error responses', () => {
    for (const op of ops) {
      const responses = doc.paths[op.path].get.responses as Json;
      const ok = responses['200'];
      expect(ok.content['application/json'].schema).toBeDefined();
      const headers = Object.keys(ok.headers);
      for (const h of ['ETag', 'X-Request-Id', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Cache-Control']) {
        expect(headers).toContain(h);
      }
      expect(headers.includes('Link')).toBe(op.headers !== undefined && 'Link' in op.headers);
      expect(responses['304']).toBeDefined();
      for (const status of ['400', '401', '403', '404', '406', '429', '500', '503', 'default']) {
        const response = deref(responses[status]);
        expect(response.content['application/json'].schema, `${op.operationId} ${status}`).toEqual({ $ref: '#/components/schemas/ErrorBody' });
      }
    }
    expect(doc.paths['/alerts/{id}'].get.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Alert' });
    expect(doc.paths['/customers/{customerId}/scenario-executions'].get.responses['200'].content['application/json'].schema)
      .toEqual({ type: 'array', items: { $ref: '#/components/schemas/Execution' } });
  });

  it('names every error code with its status and condition in the default response', () => {
    const description = doc.components.responses.Error.description as string;
    for (const [code, { status, when }] of Object.entries(ERROR_CODES)) {
      expect(description).toContain(`| \`${code}\` | ${status} | ${when.replace(/\|/g, '\\|')} |`);
    }
  });

  it('describes each explicit error status by the codes answered with it', () => {
    for (const [code, { status, when }] of Object.entries(ERROR_CODES)) {
      // 405 answers methods no path lists: only the default response describes it.
      if (!(READ_ERROR_STATUSES as readonly number[]).includes(status)) continue;
      const response = doc.components.responses[`Error${status}`] as Json;
      expect(response.description).toContain(`\`${code}\`: ${when}`);
    }
    expect(Object.keys(doc.components.responses.Error401.headers)).toContain('WWW-Authenticate');
    expect(Object.keys(doc.components.responses.Error429.headers)).toContain('Retry-After');
  });

  it('declares bearer authentication globally and the scope each operation needs', () => {
    const scheme = doc.components.securitySchemes.bearerAuth as Json;
    expect(scheme).toMatchObject({ type: 'http', scheme: 'bearer' });
    for (const scope of SCOPES) expect(scheme.description).toContain(scope);
    expect(scheme.description).toContain('compliance-read keys create');
    expect(scheme.description).toMatch(/one per project/);
    expect(doc.security).toEqual([{ bearerAuth: [] }]);
    for (const op of ops) {
      const get = doc.paths[op.path].get as Json;
      expect(get.description).toContain(`\`${op.scope}\``);
      expect(get.security).toEqual([{ bearerAuth: [op.scope] }]);
    }
  });

  it('documents the signed file route without bearer authentication', () => {
    const get = doc.paths['/files/{project}/{objectKey}'].get as Json;
    expect(get.security).toEqual([]);
    expect((get.parameters as Json[]).map((p) => p.name)).toEqual(['project', 'objectKey', 'expires', 'filename', 'mimetype', 'sig']);
    expect(get.responses['403'].description).toMatch(/forbidden.*tampered.*expired/);
    expect(get.responses['404'].description).toContain('not_found');
    const withoutFiles = openApiDocument({ basePath: '/v1', version: '1', fileRoute: false }) as Json;
    expect(withoutFiles.paths['/files/{project}/{objectKey}']).toBeUndefined();
  });

  it('publishes every contract schema under its spec name, as plain JSON Schema', () => {
    const schemas = doc.components.schemas as Json;
    for (const name of Object.keys(SCHEMA_COMPONENTS)) expect(schemas[name], name).toBeDefined();
    for (const part of ['Beneficiary', 'CompanyClaim', 'ScenarioExecution', 'RuleExecution', 'Note', 'AuditEntry', 'ErrorIssue']) {
      expect(schemas[part], part).toBeDefined();
    }
    // Every enumeration a field names, by its spec name; the document types share one field and the proof-of-residence media type none.
    const unnamed = ['ProofOfResidenceDocType', 'CompanyDocType', 'ProofOfResidenceMediaType'];
    expect(Object.keys(ENUM_SCHEMAS).filter((name) => schemas[name] === undefined).sort()).toEqual([...unnamed].sort());
    walk(doc, (node, path) => {
      expect(Object.getOwnPropertySymbols(node), path).toEqual([]);
      expect(node.$id, path).toBeUndefined();
      if (typeof node.$ref === 'string') expect(deref(node), `${path} -> ${node.$ref}`).toBeDefined();
    });
    expect(JSON.parse(JSON.stringify(doc))).toEqual(doc);
  });

  it('keeps custom formats and explains the service-specific ones', () => {
    const formats = new Map<string, Json[]>();
    walk(doc.components.schemas, (node) => {
      if (typeof node.format === 'string') formats.set(node.format, [...(formats.get(node.format) ?? []), node]);
    });
    expect([...formats.keys()].sort()).toEqual(['attribute-path', 'currency-code', 'date-time', 'email', 'uri', 'uuid']);
    for (const format of ['currency-code', 'attribute-path']) {
      for (const node of formats.get(format)!) expect(node.description, format).toEqual(expect.any(String));
    }
  });

  it('has schemas that judge records as the import validators do', () => {
    const ajv = addContractFormats(new Ajv2020({ strict: false, allErrors: true, allowUnionTypes: true }));
    ajv.addSchema({ $id: 'https://openapi.test/doc', components: doc.components });
    const names: Record<RecordKind, string> = { customer: 'CompanyDetails', execution: 'Execution', alert: 'Alert' };
    const cases: [RecordKind, Record<string, unknown>][] = [
      ['customer', fullCompany()], ['customer', minimalCompany()], ['customer', { ...minimalCompany(), riskScore: null }],
      ['customer', { ...minimalCompany(), riskScore: 'Bogus' }], ['customer', { ...minimalCompany(), id: 'nope' }],
      ['execution', fullExecution()], ['execution', minimalExecution()], ['execution', { ...minimalExecution(), execution_status: 'done' }],
      ['alert', fullAlert()], ['alert', minimalAlert()], ['alert', { ...minimalAlert(), severity: 'Critical' }],
      ['alert', { ...minimalAlert(), audits: [{ timestamp: '2024-01-01T00:00:00Z', action: 'create', record: { status: 'Nope' } }] }],
    ];
    for (const [kind, record] of cases) {
      const validate = ajv.getSchema(`https://openapi.test/doc#/components/schemas/${names[kind]}`)!;
      expect(validate(record), `${kind} ${JSON.stringify(record).slice(0, 80)}`).toBe(validateRecord(kind, record).ok);
    }
  });

  it('attaches the contract examples to the 200 responses', () => {
    expect(doc.paths['/companies/{id}/details'].get.responses['200'].content['application/json'].example).toEqual(fullCompany());
    expect(doc.paths['/alerts/{id}'].get.responses['200'].content['application/json'].example).toEqual(fullAlert());
  });

  it("says when each paged operation sends Link: a list while pages remain, the feed on every answer", () => {
    expect(doc.paths['/alerts'].get.description).toContain('absent on the last page');
    expect(doc.paths['/companies'].get.description).toContain('absent on the last page');
    const feed = doc.paths['/changes'].get.description as string;
    expect(feed).toContain('on every answer, an empty one included');
    expect(feed).not.toMatch(/while more items remain|absent on the last page/);
  });

  it('describes authentication, errors, pagination, signed URLs and versioning in info', () => {
    const info = doc.info as Json;
    expect(info.version).toBe('1.2.3');
    for (const heading of ['## Authentication', '## Errors', '## Pagination', '## Signed document URLs', '## Versioning']) {
      expect(info.description).toContain(heading);
    }
    expect(info.description).toContain('rel="next"');
    expect(info.description).toContain('15 minutes');
    expect(info.description).toContain('`/v1`');
  });

  it('puts the base path in the server URL, after the public origin when given', () => {
    expect(doc.servers).toEqual([{ url: '/v1', description: 'this service' }]);
    const pub = openApiDocument({ basePath: '/v1', serverUrl: 'https://compliance.example.com/', version: '1' }) as Json;
    expect(pub.servers[0].url).toBe('https://compliance.example.com/v1');
  });

  it('publishes no component that nothing references', () => {
    const text = JSON.stringify({ ...doc, components: { ...doc.components, schemas: undefined } });
    const inSchemas = JSON.stringify(doc.components.schemas);
    for (const section of ['schemas', 'responses', 'headers'] as const) {
      for (const name of Object.keys(doc.components[section] as Json)) {
        const ref = `"#/components/${section}/${name}"`;
        const referenced = text.includes(ref) || (section === 'schemas' && inSchemas.split(ref).length > 1);
        expect(referenced, `${section}/${name}`).toBe(true);
      }
    }
  });

  it('marks every field of the error body required, as every error answer has them, and its code one of the catalogue', () => {
    const body = doc.components.schemas.ErrorBody as Json;
    expect([...(body.required as string[])].sort()).toEqual(['code', 'issues', 'message']);
    expect([...(body.properties.code.enum as string[])].sort()).toEqual(Object.keys(ERROR_CODES).sort());
  });

  it("states the company answer's type as the one value it is served with", () => {
    const schema = doc.paths['/companies/{id}/details'].get.responses['200'].content['application/json'].schema as Json;
    const ajv = addContractFormats(new Ajv2020({ strict: false, allowUnionTypes: true }));
    ajv.addSchema({ $id: 'https://openapi.test/doc', components: doc.components });
    const validate = ajv.compile({ $id: 'https://openapi.test/answer', ...JSON.parse(JSON.stringify(schema).replaceAll('"#/components', '"https://openapi.test/doc#/components')) });
    expect(validate(fullCompany())).toBe(true);
    expect(validate({ ...fullCompany(), type: 'Individual' })).toBe(false);
    expect(validate({ ...fullCompany(), type: null })).toBe(false);
  });

  it('documents the from/to format the service applies: impossible dates and times are outside the pattern', () => {
    const param = (doc.paths['/customers/{customerId}/scenario-executions'].get.parameters as Json[]).find((p) => p.name === 'from')!;
    const pattern = new RegExp(param.schema.pattern as string);
    const samples = ['2014-13-17', '2014-00-10', '2014-04-31', '2014-02-30', '2014-12-17', '2016-02-29', '2014-01-31T23:59:60Z',
      '2014-01-01T24:00:00Z', '2014-01-01T10:60:00Z', '2014-01-01T10:00:00.5+05:30', '2014-01-01T10:00:00+24:00', '2014-01-01t10:00:00z',
      // February 29: leap years only, the century rule included.
      '2014-02-29', '2014-02-29T12:00:00Z', '1996-02-29', '2000-02-29', '1900-02-29', '2100-02-29', '2400-02-29', '0000-02-29', '0100-02-29', '1804-02-29'];
    for (const value of samples) {
      const full = value.length === 10 ? `${value}T00:00:00Z` : value;
      expect(pattern.test(value), value).toBe(isDateTime(full));
    }
    // Every day of a 400-year cycle's first 401 years, past its century years, agrees too.
    for (let year = 1600; year <= 2000; year++) {
      for (const day of ['02-28', '02-29', '03-01']) {
        const value = `${String(year).padStart(4, '0')}-${day}`;
        expect(pattern.test(value), value).toBe(isDateTime(`${value}T00:00:00Z`));
      }
    }
    expect(param.schema.description).toContain('February 29 only in a leap year');
  });

  it('is the same document on every call', () => {
    expect(openApiDocument({ basePath: '/v1', version: '1.2.3' })).toEqual(doc);
  });
});
