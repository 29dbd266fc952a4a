/**
 * Extra fields are kept, never rejected: the upstream platform may add fields before the
 * contract lists them. In an object whose fields the spec lists, an extra field is reported
 * as a warning; in an object the spec leaves open (built with OpenObject, which sets
 * additionalProperties: true) it is not reported at all.
 *
 * Rather than compile a second, strict schema and run it too, the schema compiled for
 * validation sends each extra field of a listed object through a no-op keyword that records
 * its path: one pass over the record yields both errors and warnings.
 */

/** The annotation keyword placed on the extra fields of listed objects. */
export const UNLISTED_FIELD_KEYWORD = 'x-unlisted-field';

// Keys whose value is a map of name -> schema, a single schema, or a list of schemas. All
// other keys (enum, const, examples, ...) hold data and are copied untouched.
const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
const SCHEMA_VALUES = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames',
  'unevaluatedItems', 'unevaluatedProperties', 'additionalItems'];
const SCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function transform(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(transform);
  if (!isObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    // Drop $id: the validation copy must not clash with the published schemas if both are
    // ever added to the same ajv instance, and nothing here is referenced by id.
    if (key === '$id') continue;
    if (SCHEMA_MAPS.includes(key) && isObject(child)) {
      out[key] = Object.fromEntries(Object.entries(child).map(([k, v]) => [k, transform(v)]));
    } else if (SCHEMA_VALUES.includes(key) || SCHEMA_LISTS.includes(key)) {
      out[key] = transform(child);
    } else {
      out[key] = child;
    }
  }
  if (isObject(out.properties) && out.additionalProperties === undefined) {
    out.additionalProperties = { [UNLISTED_FIELD_KEYWORD]: true };
  }
  return out;
}

/**
 * A deep copy of `schema` for validation: extra fields of listed objects pass through the
 * UNLISTED_FIELD_KEYWORD annotation. The published schema is not modified.
 */
export function withUnlistedFieldReports(schema: object): Record<string, unknown> {
  return transform(schema) as Record<string, unknown>;
}
