/**
 * The contract's TypeBox schemas as OpenAPI 3.1 `components.schemas`. TypeBox schemas are
 * plain JSON Schema 2020-12 plus symbol-keyed markers; the markers are dropped, and every
 * titled part (resources, their parts, enumerations) becomes one component referenced by
 * `$ref`, so the document states each shape once, exactly as the validators check it.
 */
import type { TSchema } from '@sinclair/typebox';
import { SCHEMA_COMPONENTS } from '../../contract/components.js';

/** A JSON Schema object as it appears in the document. */
export type JsonSchema = Record<string, unknown>;

/** The components gathered so far and the way to reference them. */
export interface SchemaComponents {
  /** Component name -> schema; grows as `use` meets titled parts. */
  readonly schemas: Record<string, JsonSchema>;
  /** The document form of `schema`: symbol keys gone, titled parts replaced by `$ref`. */
  use(schema: TSchema): JsonSchema;
}

// Custom formats are the validators' own, so a reader cannot look them up anywhere: say what they mean.
const FORMAT_DESCRIPTIONS: Readonly<Record<string, string>> = {
  'currency-code': 'a currency code (SPEC 2.1): ISO 4217 alphabetic codes plus the platform\'s own; the format `currency-code` is checked against that list',
  'attribute-path': 'a rule attribute path (SPEC 2.3.1), e.g. `Customer/amlScreening/pepHits`; the format `attribute-path` admits each path of that grammar and every intermediate node',
};

// Keywords whose values are data, not schemas: a `title` inside them is not a schema's title.
const DATA_KEYWORDS = new Set(['enum', 'const', 'default', 'examples', 'example']);

const REF_PREFIX = '#/components/schemas/';

/** Builds the component set, seeded with the contract's named schemas (SCHEMA_COMPONENTS). */
export function schemaComponents(roots: Readonly<Record<string, TSchema>> = SCHEMA_COMPONENTS): SchemaComponents {
  const schemas: Record<string, JsonSchema> = {};
  // name -> signature of the schema the name stands for, to tell a true reuse from a clash.
  const signatures = new Map<string, string>();
  // `$id` -> component name: a `$ref` by id must point at the component once `$id` is gone
  // (an `$id` left inside components would also rebase every `$ref` beneath it).
  const ids = new Map<string, string>();

  for (const [name, schema] of Object.entries(roots)) {
    signatures.set(name, signature(schema as JsonSchema));
    const id = (schema as JsonSchema).$id;
    if (typeof id === 'string') ids.set(id, name);
  }

  const convert = (node: unknown, ownName: string | undefined): unknown => {
    if (Array.isArray(node)) return node.map((item) => convert(item, undefined));
    if (node === null || typeof node !== 'object') return node;
    const schema = node as JsonSchema;
    if (typeof schema.title === 'string' && schema.title !== ownName) return reference(schema);
    const out: JsonSchema = {};
    for (const [key, value] of Object.entries(schema)) {
      if (key === '$id') continue;
      if (key === '$ref' && typeof value === 'string' && !value.startsWith('#')) {
        out.$ref = REF_PREFIX + (ids.get(value) ?? value);
      } else if (DATA_KEYWORDS.has(key)) {
        out[key] = structuredClone(value);
      } else if (value !== null && typeof value === 'object') {
        out[key] = Array.isArray(value) ? value.map((v) => convert(v, undefined)) : convertMap(key, value as JsonSchema);
      } else {
        out[key] = value;
      }
    }
    const format = out.format;
    if (typeof format === 'string' && out.description === undefined && FORMAT_DESCRIPTIONS[format] !== undefined) {
      out.description = FORMAT_DESCRIPTIONS[format];
    }
    return out;
  };

  // `properties` and the like map names to schemas; a member named `title` is a property, not a title.
  const convertMap = (key: string, value: JsonSchema): unknown => {
    if (key === 'properties' || key === 'patternProperties' || key === '$defs' || key === 'dependentSchemas') {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, convert(v, undefined)]));
    }
    return convert(value, undefined);
  };

  const reference = (schema: JsonSchema): JsonSchema => {
    const name = schema.title as string;
    const { base, nullable } = splitNull(schema);
    const sig = signature(base);
    const known = signatures.get(name);
    if (known !== undefined && known !== sig) {
      // Same title, different shape: inlining keeps the meaning exact.
      return convert(schema, name) as JsonSchema;
    }
    if (known === undefined) signatures.set(name, sig);
    if (schemas[name] === undefined) {
      schemas[name] = {}; // placeholder first, so a self-referencing schema ends
      schemas[name] = convert(base, name) as JsonSchema;
    }
    const ref: JsonSchema = { $ref: REF_PREFIX + name };
    const description = base.description;
    const ownDescription = schemas[name]!.description;
    if (nullable) {
      return description !== undefined && description !== ownDescription
        ? { description, anyOf: [ref, { type: 'null' }] }
        : { anyOf: [ref, { type: 'null' }] };
    }
    if (description !== undefined && description !== ownDescription) ref.description = description;
    return ref;
  };

  for (const [name, schema] of Object.entries(roots)) {
    if (schemas[name] === undefined) {
      schemas[name] = {};
      schemas[name] = convert(schema, name) as JsonSchema;
    }
  }

  return { schemas, use: (schema) => convert(schema, undefined) as JsonSchema };
}

/**
 * A nullable variant (src/contract Nullable: `type: [t, 'null']`, null added to `enum`) as
 * the schema it was made from plus a flag; OpenAPI then says `anyOf: [$ref, null]`.
 */
function splitNull(schema: JsonSchema): { base: JsonSchema; nullable: boolean } {
  const type = schema.type;
  if (!Array.isArray(type) || !type.includes('null')) return { base: schema, nullable: false };
  const base: JsonSchema = { ...schema };
  const rest = type.filter((t) => t !== 'null');
  base.type = rest.length === 1 ? rest[0] : rest;
  if (Array.isArray(schema.enum)) base.enum = schema.enum.filter((v) => v !== null);
  return { base, nullable: true };
}

/** A canonical text of a schema's JSON data (sorted keys, no symbols, no `$id`/description at the top). */
function signature(schema: JsonSchema): string {
  const { $id: _id, description: _description, ...rest } = schema;
  return canonical(rest);
}

// The contract's schemas are built once and never changed, and share their parts: each part's text is made once.
const canonicalTexts = new WeakMap<object, string>();

function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  let text = canonicalTexts.get(value);
  if (text === undefined) {
    if (Array.isArray(value)) text = `[${value.map(canonical).join(',')}]`;
    else {
      const entries = Object.entries(value as JsonSchema).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      text = `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
    }
    canonicalTexts.set(value, text);
  }
  return text;
}
