import { describe, expect, it } from 'vitest';
import { parsedShape } from './parsed-shape.js';

const nested = (levels: number): unknown => JSON.parse('['.repeat(levels - 1) + '{}' + ']'.repeat(levels - 1));

describe('parsedShape', () => {
  it('counts object members at every level, not array items', () => {
    expect(parsedShape(JSON.parse('{"a":1,"b":{"c":[{"d":null},{"e":2,"f":3}]},"g":[1,2,3]}'), 64)).toEqual({ members: 7, tooDeep: false });
    expect(parsedShape('text', 64)).toEqual({ members: 0, tooDeep: false });
  });

  it('accepts exactly the limit and flags one level more, at any depth without recursion', () => {
    expect(parsedShape(nested(64), 64).tooDeep).toBe(false);
    expect(parsedShape(nested(65), 64).tooDeep).toBe(true);
    expect(parsedShape(nested(100_000), Infinity).tooDeep).toBe(false);
  });
});
