/**
 * A string enumeration as plain JSON Schema (`{type:'string', enum:[...]}`) rather than
 * TypeBox's anyOf-of-literals: smaller OpenAPI output and one clear ajv error per bad value.
 */
import { Type, type SchemaOptions, type TUnsafe } from '@sinclair/typebox';

/** A string schema whose value must be one of `values`, typed as their union. */
export function StringEnum<const T extends readonly string[]>(
  values: T,
  options: SchemaOptions = {},
): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ ...options, type: 'string', enum: [...values] });
}
