import { afterEach, describe, expect, it, vi } from 'vitest';
import { ChangeWaiters, MAX_WAITERS, MAX_WAITERS_PER_PROJECT } from './change-waiters.js';

afterEach(() => vi.useRealTimers());

describe('ChangeWaiters', () => {
  it("wakes a project's waiters and no other project's", async () => {
    const waiters = new ChangeWaiters({ intervalMs: 1000, run: () => undefined });
    const a = waiters.wait('a', 10_000, undefined, () => false);
    const b = waiters.wait('b', 50, undefined, () => false);
    await Promise.resolve();
    waiters.wake('a');
    expect(await a).toBe('changed');
    expect(await b).toBe('timeout');
    expect(waiters.size).toBe(0);
  });

  it('wakes a waiter at once when its recheck finds a change made before it registered', async () => {
    const waiters = new ChangeWaiters({ intervalMs: 1000, run: () => undefined });
    expect(await waiters.wait('a', 10_000, undefined, () => true)).toBe('changed');
  });

  it('ends a wait when its signal aborts', async () => {
    const waiters = new ChangeWaiters({ intervalMs: 1000, run: () => undefined });
    const stop = new AbortController();
    const w = waiters.wait('a', 10_000, stop.signal, () => false);
    stop.abort();
    expect(await w).toBe('timeout');
  });

  it(`answers busy at once beyond ${MAX_WAITERS} waits, and holds one again once a wait ends`, async () => {
    const waiters = new ChangeWaiters({ intervalMs: 1000, run: () => undefined });
    const held = Array.from({ length: MAX_WAITERS }, (_, i) => waiters.wait(`p${i % 7}`, 10_000, undefined, () => false));
    expect(await waiters.wait('x', 10_000, undefined, () => false)).toBe('busy');
    waiters.wake('p0');
    await Promise.all(held.filter((_, i) => i % 7 === 0));
    const again = waiters.wait('x', 10_000, undefined, () => false);
    waiters.wakeAll();
    expect(await again).toBe('changed');
    expect(await Promise.all(held)).toEqual(Array(MAX_WAITERS).fill('changed'));
  });

  it(`answers busy at once beyond ${MAX_WAITERS_PER_PROJECT} waits of one project, while other projects still wait`, async () => {
    const waiters = new ChangeWaiters({ intervalMs: 1000, run: () => undefined });
    const held = Array.from({ length: MAX_WAITERS_PER_PROJECT }, () => waiters.wait('flood', 10_000, undefined, () => false));
    expect(await waiters.wait('flood', 10_000, undefined, () => false)).toBe('busy');
    const other = waiters.wait('quiet', 10_000, undefined, () => false);
    waiters.wake('quiet');
    expect(await other).toBe('changed');
    waiters.wakeAll();
    expect(await Promise.all(held)).toEqual(Array(MAX_WAITERS_PER_PROJECT).fill('changed'));
  });

  it('runs the shared check only while someone waits', async () => {
    vi.useFakeTimers();
    let checks = 0;
    const waiters = new ChangeWaiters({ intervalMs: 100, run: () => void checks++ });
    await vi.advanceTimersByTimeAsync(500);
    expect(checks).toBe(0);
    const w = waiters.wait('a', 350, undefined, () => false);
    await vi.advanceTimersByTimeAsync(1000);
    expect(await w).toBe('timeout');
    expect(checks).toBe(3);
    await vi.advanceTimersByTimeAsync(1000);
    expect(checks).toBe(3);
  });
});
