import { describe, expect, it } from 'vitest';
import { StringEnum } from './string-enum.js';

describe('StringEnum', () => {
  it('produces a plain string enum schema with the given options', () => {
    const schema = StringEnum(['a', 'b'] as const, { title: 'AB' });
    expect(JSON.parse(JSON.stringify(schema))).toEqual({ title: 'AB', type: 'string', enum: ['a', 'b'] });
  });

  it('does not share the values array with the caller', () => {
    const values = ['a'];
    const schema = StringEnum(values);
    values.push('b');
    expect(schema.enum).toEqual(['a']);
  });
});
