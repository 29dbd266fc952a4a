/** The parameter schemas the request checks compile without the meta-schema: each must be valid against it. */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { addContractFormats } from '../contract/formats.js';
import { OPERATIONS, WRITE_OPERATIONS, type Operation } from '../contract/operations.js';

describe('parameter schemas', () => {
  it('are each valid against the JSON Schema 2020-12 meta-schema', () => {
    const ajv = addContractFormats(new Ajv2020({ strict: false }));
    const schemas: [string, object][] = [];
    for (const [name, op] of Object.entries({ ...OPERATIONS, ...WRITE_OPERATIONS }) as [string, Operation][]) {
      for (const [p, def] of Object.entries(op.pathParameters)) schemas.push([`${name} ${p}`, def.schema]);
      for (const [p, def] of Object.entries(op.query)) schemas.push([`${name} ?${p}`, def.schema]);
    }
    expect(schemas.length).toBeGreaterThan(20);
    for (const [where, schema] of schemas) expect(ajv.validateSchema(schema), `${where}: ${ajv.errorsText()}`).toBe(true);
  });

  it('would be caught when one is not', () => {
    const ajv = addContractFormats(new Ajv2020({ strict: false }));
    expect(ajv.validateSchema({ type: 'string', minLength: -1 })).toBe(false);
  });
});
