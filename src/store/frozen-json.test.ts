import { describe, expect, it } from 'vitest';
import { freezeMembers, frozenJson } from './frozen-json.js';

describe('frozenJson', () => {
  it('is JSON.stringify for values, with null for undefined', () => {
    expect(frozenJson('a"b')).toBe('"a\\"b"');
    expect(frozenJson(51)).toBe('51');
    expect(frozenJson(undefined)).toBe('null');
    expect(frozenJson(null)).toBe('null');
  });

  it('serializes an object that is not frozen each time, so a change to it shows', () => {
    const open: { order: string; q?: string } = { order: 'desc' };
    expect(frozenJson(open)).toBe('{"order":"desc"}');
    open.q = 'acme';
    expect(frozenJson(open)).toBe('{"order":"desc","q":"acme"}');
  });

  it('gives a frozen object the JSON it had when first asked', () => {
    const frozen = Object.freeze({ statuses: Object.freeze(['Open', 'Pending']), order: 'asc' });
    expect(frozenJson(frozen)).toBe(JSON.stringify(frozen));
    expect(frozenJson(frozen)).toBe('{"statuses":["Open","Pending"],"order":"asc"}');
  });

  it('keeps the JSON of an object whose array members freezeMembers froze with it', () => {
    const filter = freezeMembers({ statuses: ['Open'], order: 'desc' });
    expect(Object.isFrozen(filter) && Object.isFrozen(filter.statuses)).toBe(true);
    expect(() => (filter.statuses as string[]).push('Closed')).toThrow(TypeError);
    expect(frozenJson(filter)).toBe('{"statuses":["Open"],"order":"desc"}');
  });
});
