import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { projectSegment, resolveExpiryOptions, roundedExpiry, wellFormed } from './file-store.js';

describe('roundedExpiry', () => {
  it('is at least now + ttl, less than now + ttl + bucket, and a bucket multiple', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4e12 }), fc.integer({ min: 1, max: 86_400 }), fc.integer({ min: 1, max: 3600 }),
        (now, ttl, bucket) => {
          const e = roundedExpiry(now, ttl, bucket);
          expect(e * 1000).toBeGreaterThanOrEqual(now + ttl * 1000);
          expect(e * 1000).toBeLessThan(now + (ttl + bucket) * 1000);
          expect(e % bucket).toBe(0);
        }),
    );
  });

  it('is the same for every instant within one bucket and moves on at the next', () => {
    const start = 1_700_000_040_000; // a 60 s boundary minus the 900 s ttl is also one
    const first = roundedExpiry(start + 1);
    expect(roundedExpiry(start + 59_999)).toBe(first);
    expect(roundedExpiry(start + 60_000)).toBe(first);
    expect(roundedExpiry(start + 60_001)).toBe(first + 60);
  });

  it('defaults to a 15 minute ttl and a 60 second bucket', () => {
    expect(roundedExpiry(0)).toBe(900);
    expect(roundedExpiry(1)).toBe(960);
  });
});

describe('resolveExpiryOptions', () => {
  it('applies defaults and refuses non-positive or fractional seconds', () => {
    expect(resolveExpiryOptions({})).toEqual({ ttlSeconds: 900, bucketSeconds: 60 });
    expect(() => resolveExpiryOptions({ ttlSeconds: 0 })).toThrow(/ttlSeconds/);
    expect(() => resolveExpiryOptions({ bucketSeconds: 1.5 })).toThrow(/bucketSeconds/);
    expect(() => resolveExpiryOptions({ ttlSeconds: Number.NaN })).toThrow(/ttlSeconds/);
  });
});

describe('wellFormed', () => {
  it('replaces lone surrogates and leaves valid text, emoji included, untouched', () => {
    expect(wellFormed('a\ud800b')).toBe('a\ufffdb');
    const ok = 'Ünïcødé 😀';
    expect(wellFormed(ok)).toBe(ok);
  });
});

describe('projectSegment', () => {
  it('keeps plain project ids and percent-encodes the rest, a leading dot included', () => {
    expect(projectSegment('proj-demo_1.eu')).toBe('proj-demo_1.eu');
    expect(projectSegment('Acme Ltd/ä')).toBe('Acme%20Ltd%2F%C3%A4');
    expect(projectSegment('.hidden')).toBe('%2Ehidden');
    expect(projectSegment('50%')).toBe('50%25');
    for (const none of ['', '.', '..', 'a\ud800', 'x'.repeat(201), 'é'.repeat(34)]) expect(projectSegment(none)).toBeUndefined();
  });

  it('is one safe segment that decodes back to the project, so distinct projects never share one', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 30 }), (project) => {
        const segment = projectSegment(project);
        if (segment === undefined) return;
        expect(segment).toMatch(/^[A-Za-z0-9_%-][A-Za-z0-9._%-]*$/);
        expect(decodeURIComponent(segment)).toBe(project);
      }),
      { numRuns: 500 },
    );
  });
});
