/**
 * Small schema builders shared by the resource modules. Nullability is expressed as a JSON
 * type array (`type: ['string','null']`) rather than anyOf: OpenAPI 3.1 reads it natively and
 * ajv then reports one plain error ("must be a string or null") instead of one per branch.
 */
import {
  Type,
  type ObjectOptions,
  type Static,
  type StringOptions,
  type TObject,
  type TOptional,
  type TProperties,
  type TSchema,
  type TUnsafe,
} from '@sinclair/typebox';

/** `schema`, or null. Only JSON Schema data is copied; TypeBox's markers are not. */
export function Nullable<T extends TSchema>(schema: T): TUnsafe<Static<T> | null> {
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    // A nullable variant is a different schema, so it must not claim the original's $id.
    if (key !== '$id') copy[key] = value;
  }
  const type = copy.type;
  if (typeof type === 'string') copy.type = [type, 'null'];
  else if (Array.isArray(type) && !type.includes('null')) copy.type = [...(type as string[]), 'null'];
  if (Array.isArray(copy.enum) && !copy.enum.includes(null)) copy.enum = [...(copy.enum as unknown[]), null];
  // With no `type` at all the schema already accepts null.
  return Type.Unsafe<Static<T> | null>(copy);
}

/** An optional property that may also be null (SPEC 2.2: requiredness and nullability "not shown"). */
export function Maybe<T extends TSchema>(schema: T): TOptional<TUnsafe<Static<T> | null>> {
  return Type.Optional(Nullable(schema));
}

/**
 * An object whose inner shape the spec leaves open: properties beyond the listed ones are
 * part of the contract, so they are never reported. Plain `Type.Object` (no
 * additionalProperties) marks an object whose fields the spec lists; extra fields there are
 * kept but reported as warnings (see listed-fields.ts).
 */
export function OpenObject<T extends TProperties>(properties: T, options: ObjectOptions = {}): TObject<T> {
  return Type.Object(properties, { ...options, additionalProperties: true });
}

/** A string in uuid format. */
export const Uuid = (options: StringOptions = {}) => Type.String({ ...options, format: 'uuid' });

/** A string in RFC 3339 date-time format. */
export const DateTime = (options: StringOptions = {}) => Type.String({ ...options, format: 'date-time' });
