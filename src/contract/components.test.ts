import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { SCHEMA_COMPONENTS } from './components.js';
import { fullAlert, fullCompany, fullExecution } from './examples.js';
import { addContractFormats } from './formats.js';

/** The schemas as JSON, without TypeBox's symbol markers, as an OpenAPI document holds them. */
const asJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

describe('schema components for OpenAPI 3.1', () => {
  it('names the four resources, whose parts and enumerations follow from them', () => {
    expect(Object.keys(SCHEMA_COMPONENTS)).toEqual(['CompanyDetails', 'Execution', 'Alert', 'Change', 'ErrorBody']);
    for (const name of ['CompanyDetails', 'Execution', 'Alert', 'Change', 'ErrorBody']) {
      expect(SCHEMA_COMPONENTS[name]?.$id).toBe(name);
      expect(SCHEMA_COMPONENTS[name]?.title).toBe(name);
    }
  });

  it('are valid JSON Schema 2020-12 and compile in a fresh strict ajv with only the contract formats', () => {
    const ajv = addContractFormats(new Ajv2020({ strict: true, allowUnionTypes: true }));
    for (const [name, schema] of Object.entries(SCHEMA_COMPONENTS)) {
      expect(ajv.validateSchema(asJson(schema) as object), name).toBe(true);
      expect(() => ajv.compile(asJson(schema) as object), name).not.toThrow();
    }
  });

  it('accept the example records as published (open everywhere, no warning machinery)', () => {
    const ajv = addContractFormats(new Ajv2020({ allowUnionTypes: true }));
    expect(ajv.compile(asJson(SCHEMA_COMPONENTS.CompanyDetails) as object)(fullCompany())).toBe(true);
    expect(ajv.compile(asJson(SCHEMA_COMPONENTS.Execution) as object)(fullExecution())).toBe(true);
    expect(ajv.compile(asJson(SCHEMA_COMPONENTS.Alert) as object)(fullAlert())).toBe(true);
  });

  it('fit in a valid OpenAPI 3.1 document', async () => {
    const response = (ref: string) => ({
      '200': { description: 'ok', content: { 'application/json': { schema: { $ref: ref } } } },
      default: { description: 'error', content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } } },
    });
    const document = {
      openapi: '3.1.0',
      info: { title: 'Customer Compliance Read Service', version: '0.1.0' },
      paths: {
        '/companies/{id}/details': {
          get: {
            parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
            responses: response('#/components/schemas/CompanyDetails'),
          },
        },
        '/alerts/{id}': {
          get: {
            parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }],
            responses: response('#/components/schemas/Alert'),
          },
        },
      },
      components: { schemas: asJson(SCHEMA_COMPONENTS) },
    };
    const result = await new Validator().validate(document as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });
});
