import { describe, expect, it } from 'vitest';
import { acceptsJson, pickEncoding } from './accept.js';

describe('pickEncoding', () => {
  it('prefers gzip whenever it is acceptable, whatever weight br has; br only when gzip is not; honours q=0', () => {
    expect(pickEncoding('gzip, deflate, br')).toBe('gzip');
    expect(pickEncoding('br, gzip')).toBe('gzip');
    expect(pickEncoding('br;q=1, gzip;q=0.5')).toBe('gzip');
    expect(pickEncoding('br, gzip;q=0.001')).toBe('gzip');
    expect(pickEncoding('br')).toBe('br');
    expect(pickEncoding('br, *;q=0')).toBe('br');
    expect(pickEncoding('gzip;q=0, br')).toBe('br');
    expect(pickEncoding('gzip;q=0, *')).toBe('br');
    expect(pickEncoding('GZIP')).toBe('gzip');
    expect(pickEncoding('*')).toBe('gzip');
    expect(pickEncoding('identity')).toBe('identity');
    expect(pickEncoding(undefined)).toBe('identity');
  });

  it('answers each header by its own content when headers alternate (the last answer is kept, not reused blindly)', () => {
    const sequence: [string | undefined, string][] = [
      ['gzip', 'gzip'],
      ['br', 'br'],
      ['gzip', 'gzip'],
      ['gzip;q=0', 'identity'],
      ['gzip;q=0', 'identity'],
      ['', 'identity'],
      ['gzip', 'gzip'],
      [undefined, 'identity'],
      ['gzip', 'gzip'],
    ];
    for (const [header, expected] of sequence) expect(pickEncoding(header)).toBe(expected);
  });
});

describe('acceptsJson', () => {
  it('admits JSON, wildcards and an absent or empty header; refuses other types and json;q=0', () => {
    expect(acceptsJson(undefined)).toBe(true);
    expect(acceptsJson('')).toBe(true);
    expect(acceptsJson('application/json')).toBe(true);
    expect(acceptsJson('text/html, */*;q=0.1')).toBe(true);
    expect(acceptsJson('text/html')).toBe(false);
    expect(acceptsJson('application/json;q=0, */*')).toBe(false);
  });

  it('answers each header by its own content when headers alternate', () => {
    const sequence: [string | undefined, boolean][] = [
      ['text/html', false],
      ['application/json', true],
      ['text/html', false],
      ['text/html', false],
      [undefined, true],
      ['text/html', false],
      ['  ', true],
      ['application/json;q=0', false],
    ];
    for (const [header, expected] of sequence) expect(acceptsJson(header)).toBe(expected);
  });
});
