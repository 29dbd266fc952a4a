/** Repeated member names are found wherever they are. */
import { describe, expect, it } from 'vitest';
import { findDuplicateKey, hasDuplicateKey } from './duplicate-keys.js';
import { parsedShape } from './parsed-shape.js';

const find = (s: string): string | null => findDuplicateKey(Buffer.from(s));

describe('findDuplicateKey', () => {
  it('finds none in ordinary JSON, including equal names in sibling objects', () => {
    expect(find('{"a":1,"b":{"a":2},"c":[{"a":1},{"a":2}]}')).toBeNull();
    expect(find('[1,"a","a",{"x":"a,b:{\\"x\\":1}"}]')).toBeNull();
  });

  it('finds a repeat at the top, in nested objects and in arrays of objects, with its path', () => {
    expect(find('{"a":1,"a":2}')).toBe('/a');
    expect(find('{"r":{"severity":"Bogus","severity":"High"}}')).toBe('/r/severity');
    expect(find('{"n":[{"x":1},{"y":1,"y":2}]}')).toBe('/n/1/y');
  });

  it('compares decoded names, so an escaped spelling is the same name', () => {
    expect(find('{"ab":1,"\\u0061b":2}')).toBe('/ab');
    expect(find('{"a\\"b":1,"a\\"b":2}')).toBe('/a"b');
  });

  it('handles deep nesting without recursion', () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    expect(findDuplicateKey(Buffer.from(deep))).toBeNull();
  });
});

describe('hasDuplicateKey', () => {
  const has = (s: string): boolean => hasDuplicateKey(s, parsedShape(JSON.parse(s), Infinity).members);
  it('agrees with the exact scan, also when escaped quotes sit before colons', () => {
    for (const s of ['{"a":1,"b":{"a":2}}', '{"a":"x\\":y","b":"\\":"}', '{"a":1,"a":2}', '{"x":{"q":"\\":","q":1}}', '[{"a":1},{"a":1}]', '{"__proto__":1,"b":2}',
      '{"a" :1,"a"\n:2}', '{"a" :1,"a":2}', '{"a":1,"a" \t:2}', '{"a"\t: 1, "b" : {"c" \r\n: "12:30"}}', '{"t":"10:20:30","u":":"}', '{"a":"x\\" : 1","a":2}', '{"a":"x\\" : 1","b":2}']) {
      expect(has(s), s).toBe(findDuplicateKey(Buffer.from(s)) !== null);
    }
  });
});
