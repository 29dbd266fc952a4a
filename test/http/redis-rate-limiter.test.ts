/** Rate limits shared through a real Redis: same numbers as in memory, one budget across processes, fail-open. */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliKey, freePort, runCli, startServeProcess, type ServeProcess } from '../support/cli-process.js';
import { companyLine } from '../support/records.js';
import { testRedis } from '../support/test-redis.js';
import { startTcpProxy } from '../support/tcp-proxy.js';
import { MemoryRateLimiter } from '../../src/http/rate-limit.js';
import { KEY_PREFIX, openRedisRateLimiter } from '../../src/http/redis-rate-limiter.js';

// Database 5, flushed first: these tests own it and never touch keys of database 0.
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/5';

const { client: probe, wanted: runIt } = await testRedis(REDIS_URL);
if (!runIt) console.log(`Redis not reachable at ${REDIS_URL}: skipped the Redis rate limit tests`);

afterAll(() => probe.disconnect());

describe.runIf(runIt)('Redis rate limiter', () => {
  beforeAll(async () => {
    await probe.flushdb();
  });

  it('takes the burst, then refuses with the same numbers as the memory limiter', async () => {
    const redis = await openRedisRateLimiter(REDIS_URL, 3, 0.5);
    const memory = new MemoryRateLimiter(3, 0.5);
    try {
      for (let i = 0; i < 5; i++) {
        const [r, m] = [await redis.take('same-numbers'), await memory.take('same-numbers')];
        expect({ allowed: r.allowed, limit: r.limit, remaining: r.remaining, retryAfter: r.retryAfter }).toEqual({
          allowed: m.allowed,
          limit: m.limit,
          remaining: m.remaining,
          retryAfter: m.retryAfter,
        });
        expect(Math.abs(r.reset - m.reset)).toBeLessThanOrEqual(1);
      }
    } finally {
      await redis.close();
    }
  });

  it('keeps each key in its own bucket under the crs:rl: prefix, expiring when it would be full again', async () => {
    const limiter = await openRedisRateLimiter(REDIS_URL, 2, 0.5);
    try {
      await limiter.take('bucket-a');
      await limiter.take('bucket-a');
      expect((await limiter.take('bucket-a')).allowed).toBe(false);
      expect((await limiter.take('bucket-b')).allowed).toBe(true);
      const ttl = await probe.pttl(`${KEY_PREFIX}bucket-a`);
      // Empty bucket: full again after 2 tokens / 0.5 per second = 4 s.
      expect(ttl).toBeGreaterThan(3000);
      expect(ttl).toBeLessThanOrEqual(4000);
    } finally {
      await limiter.close();
    }
  });

  it('charges a debit that the next take sees without waiting for it, below zero like the memory limiter', async () => {
    const redis = await openRedisRateLimiter(REDIS_URL, 10, 0.5);
    const memory = new MemoryRateLimiter(10, 0.5);
    try {
      const steps: (['take'] | ['charge', number])[] = [['take'], ['charge', 3], ['take'], ['charge', 12], ['take'], ['take']];
      const seen: { redis: [boolean, number, number]; memory: [boolean, number, number] }[] = [];
      for (const step of steps) {
        if (step[0] === 'charge') {
          // Not awaited, as an answer does not wait: the next take still sees it.
          redis.charge('debit', step[1]);
          memory.charge('debit', step[1]);
          continue;
        }
        const [r, m] = [await redis.take('debit'), await memory.take('debit')];
        seen.push({ redis: [r.allowed, r.remaining, r.retryAfter], memory: [m.allowed, m.remaining, m.retryAfter] });
      }
      // 10 → 9 → (−3) 6 → 5 → (−12) −7: refused, 8 tokens short of one, 16 s at 0.5 a second.
      expect(seen.map((s) => s.memory)).toEqual([
        [true, 9, 0],
        [true, 5, 0],
        [false, 0, 16],
        [false, 0, 16],
      ]);
      expect(seen.map((s) => s.redis)).toEqual(seen.map((s) => s.memory));
      // In debt the bucket is full again only after (10 + 7) / 0.5 = 34 s: the key lives that long.
      expect(await probe.pttl(`${KEY_PREFIX}debit`)).toBeGreaterThan(33_000);
    } finally {
      await redis.close();
    }
  });

  it('holds one budget across two service processes sharing the key', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'crs-redis-'));
    const db = join(dir, 'store.db');
    const company = '0b5c2a4e-3d1f-4a6b-9c8d-7e6f5a4b3c2d';
    writeFileSync(join(dir, 'in.ndjson'), `${companyLine('proj-a', company, 'f1e2d3c4-b5a6-4978-8a9b-0c1d2e3f4a5b')}\n`);
    runCli(['import', join(dir, 'in.ndjson'), '--db', db]);
    const key = cliKey(db, 'proj-a');
    const env = { DATABASE_URL: db, REDIS_URL, RATE_LIMIT_BURST: '10', RATE_LIMIT_PER_SECOND: '0.001' };
    const services: ServeProcess[] = [];
    try {
      services.push(...(await Promise.all([startServeProcess(env), startServeProcess(env)])));
      const statuses: number[][] = [[], []];
      for (let i = 0; i < 30; i++) {
        const res = await fetch(`${services[i % 2]!.url}/v1/companies/${company}/details`, { headers: { authorization: `Bearer ${key}` } });
        await res.arrayBuffer();
        statuses[i % 2]!.push(res.status);
      }
      const all = statuses.flat();
      // Each process alone would allow 10; together they allow 10 in total.
      expect(all.filter((s) => s === 200)).toHaveLength(10);
      expect(all.filter((s) => s === 429)).toHaveLength(20);
      expect(statuses[0]!.filter((s) => s === 200)).toHaveLength(5);
      expect(statuses[1]!.filter((s) => s === 200)).toHaveLength(5);
    } finally {
      for (const s of services) s.child.kill('SIGTERM');
      await Promise.all(services.map((s) => s.exited));
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('Redis rate limiter without Redis', () => {
  it('fails open: allows the request, counts it, and does not wait for Redis', async () => {
    let failOpen = 0;
    const warnings: string[] = [];
    const log = { warn: (_o: unknown, msg: string) => warnings.push(msg), info: () => undefined } as unknown as import('pino').Logger;
    // Port 1: nothing listens there, so every connection attempt is refused.
    const limiter = await openRedisRateLimiter('redis://127.0.0.1:1', 1, 1, { log, failOpen: { inc: () => failOpen++ } });
    try {
      const started = Date.now();
      const decisions = [await limiter.take('k'), await limiter.take('k'), await limiter.take('k')];
      expect(decisions.every((d) => d.allowed)).toBe(true);
      expect(failOpen).toBe(3);
      expect(warnings).toHaveLength(1); // one line per outage, not one per request
      expect(Date.now() - started).toBeLessThan(3000);
    } finally {
      await limiter.close();
    }
  });
});

const REDIS_SERVER = ['/usr/bin/redis-server', '/usr/local/bin/redis-server'].find((p) => existsSync(p));
if (REDIS_SERVER === undefined) console.log('redis-server not found: skipped the Redis outage test');

describe.runIf(REDIS_SERVER !== undefined)('Redis rate limiter through a Redis outage', () => {
  it('fails open while Redis is down and enforces limits again once it is back', async () => {
    const port = await freePort();
    const startRedis = async (): Promise<ReturnType<typeof spawn>> => {
      // A private, memory-only Redis: this test kills it, never the shared one.
      const child = spawn(REDIS_SERVER!, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
      const probe = new Redis(port, '127.0.0.1', { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
      probe.on('error', () => undefined);
      for (let i = 0; !(await probe.connect().then(() => true, () => false)); i++) {
        if (i > 100) throw new Error('private redis-server did not start');
        await new Promise((r) => setTimeout(r, 50));
      }
      probe.disconnect();
      return child;
    };
    let failOpen = 0;
    const infos: string[] = [];
    const log = { warn: () => undefined, info: (msg: string) => infos.push(msg) } as unknown as import('pino').Logger;
    let redis = await startRedis();
    const limiter = await openRedisRateLimiter(`redis://127.0.0.1:${port}`, 2, 0.001, { log, failOpen: { inc: () => failOpen++ } });
    try {
      const allowed = async (): Promise<boolean> => (await limiter.take('outage')).allowed;
      expect([await allowed(), await allowed(), await allowed()]).toEqual([true, true, false]);

      redis.kill('SIGKILL');
      await new Promise((r) => redis.once('exit', r));
      expect([await allowed(), await allowed(), await allowed()]).toEqual([true, true, true]);
      expect(failOpen).toBe(3);

      redis = await startRedis(); // empty again: the bucket starts full
      const deadline = Date.now() + 10_000;
      let before = failOpen;
      while ((await allowed(), failOpen > before)) {
        if (Date.now() > deadline) throw new Error('the limiter did not reconnect');
        before = failOpen;
        await new Promise((r) => setTimeout(r, 50));
      }
      // One token went to the take that found Redis back; one is left.
      expect([await allowed(), await allowed()]).toEqual([true, false]);
      expect(infos.some((m) => m.includes('Redis answers again'))).toBe(true);
    } finally {
      await limiter.close();
      redis.kill('SIGKILL');
    }
  });

  it('skips a blackholed Redis after one call waits out its time-out, and enforces limits again once it answers', async () => {
    const proxy = await startTcpProxy(Number(new URL(REDIS_URL).port || 6379));
    let failOpen = 0;
    const limiter = await openRedisRateLimiter(proxy.via(REDIS_URL), 2, 0.001, { failOpen: { inc: () => failOpen++ } });
    try {
      await probe.del(`${KEY_PREFIX}blackholed`);
      expect((await limiter.take('blackholed')).allowed).toBe(true);
      proxy.blackhole();
      // Reads for 3 s: only a call that meets a connection Redis seemed to hold waits out the 250 ms.
      const waits: number[] = [];
      const until = Date.now() + 3000;
      while (Date.now() < until) {
        const started = Date.now();
        expect((await limiter.take('blackholed')).allowed).toBe(true);
        waits.push(Date.now() - started);
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(waits.length).toBeGreaterThan(20);
      expect(waits.filter((ms) => ms >= 200).length).toBeLessThanOrEqual(2);
      expect(failOpen).toBe(waits.length);

      proxy.normal();
      // Back: a new connection, its answers paired with its own commands (the bucket has one token left).
      const deadline = Date.now() + 8000;
      let before = failOpen;
      while ((await limiter.take('blackholed'), failOpen > before)) {
        if (Date.now() > deadline) throw new Error('the limiter did not reconnect');
        before = failOpen;
        await new Promise((r) => setTimeout(r, 50));
      }
      expect((await limiter.take('blackholed')).allowed).toBe(false);
    } finally {
      await limiter.close();
      await proxy.close();
    }
  }, 15_000);
});
