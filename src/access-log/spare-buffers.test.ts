import { describe, expect, it } from 'vitest';
import { SpareBuffers } from './spare-buffers.js';

describe('SpareBuffers', () => {
  it('hands a buffer given back to the next take that fits in it, the largest first', () => {
    const spare = new SpareBuffers(1024, 4096);
    const small = Buffer.alloc(100);
    const large = Buffer.alloc(500);
    spare.give(small);
    spare.give(large);
    expect(spare.take(50)).toBe(large);
    expect(spare.take(50)).toBe(small);
    expect(spare.size).toBe(0);
  });

  it('makes a new buffer when no spare one is large enough, and keeps the smaller one', () => {
    const spare = new SpareBuffers(1024, 4096);
    const small = Buffer.alloc(100);
    spare.give(small);
    const made = spare.take(200);
    expect(made).not.toBe(small);
    expect(made.length).toBe(200);
    expect(spare.size).toBe(100);
  });

  it('keeps no buffer past its size bound, and no more bytes than its total bound', () => {
    const spare = new SpareBuffers(1024, 1500);
    spare.give(Buffer.alloc(2000));
    expect(spare.size).toBe(0);
    spare.give(Buffer.alloc(1000));
    spare.give(Buffer.alloc(1000));
    expect(spare.size).toBe(1000);
  });
});
