import { describe, expect, it } from 'vitest';
import { CLOSE_ARRAY, CLOSE_OBJECT, COMMA, JsonTokens, OPEN_ARRAY, OPEN_OBJECT, SCALAR, STRING } from './json-tokens.js';

function tokens(json: string): [number, string][] {
  const buf = Buffer.from(json, 'utf8');
  const t = new JsonTokens(buf);
  const out: [number, string][] = [];
  for (let kind = t.next(); kind !== 0; kind = t.next()) out.push([kind, buf.toString('utf8', t.start, t.end)]);
  return out;
}

describe('JsonTokens', () => {
  it('yields strings with their escapes, scalars and brackets, skipping whitespace and colons', () => {
    expect(tokens(' {"a\\"b" : [1, true,"x\\\\"], "é":null}\n')).toEqual([
      [OPEN_OBJECT, '{'],
      [STRING, '"a\\"b"'],
      [OPEN_ARRAY, '['],
      [SCALAR, '1'],
      [COMMA, ','],
      [SCALAR, 'true'],
      [COMMA, ','],
      [STRING, '"x\\\\"'],
      [CLOSE_ARRAY, ']'],
      [COMMA, ','],
      [STRING, '"é"'],
      [SCALAR, 'null'],
      [CLOSE_OBJECT, '}'],
    ]);
  });

  it('decodes a string token, and skips a whole object or array value in one step', () => {
    const buf = Buffer.from('{"k\\u0041":{"x":["}",{"y":1}]},"n":2}', 'utf8');
    const t = new JsonTokens(buf);
    t.next();
    t.next();
    expect(t.text()).toBe('kA');
    expect(t.next()).toBe(OPEN_OBJECT);
    t.skipValue();
    expect(buf.toString('utf8', 0, t.end)).toBe('{"k\\u0041":{"x":["}",{"y":1}]}');
    expect(t.next()).toBe(COMMA);
    t.next();
    expect(t.text()).toBe('n');
  });

  it('refuses an unterminated string', () => {
    expect(() => tokens('{"a":"b')).toThrow(SyntaxError);
  });
});
