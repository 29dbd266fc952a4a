/**
 * Heavy answers are paid for: a key asking for 200-item execution pages spends its rate budget in
 * proportion to what they cost (shown in the next answer's RateLimit-Remaining, refused sooner
 * than a key reading companies), on the in-process limiter and on Redis; and a client that accepts
 * gzip gets the stored gzip, never br compressed for it, whatever weight it gives br.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryRateLimiter, type RateLimiter } from '../../src/http/rate-limit.js';
import { openRedisRateLimiter } from '../../src/http/redis-rate-limiter.js';
import { companyLine, executionLine } from '../support/records.js';
import { testRedis } from '../support/test-redis.js';
import { startTestService, type TestService } from '../support/test-service.js';

const P = 'proj-cost';
const COMPANY = '0b5c2a4e-3d1f-4a6b-9c8d-7e6f5a4b3c2d';
const HEAVY = '1c6d3b5f-4e20-4b7c-8d9e-8f7a6b5c4d3e';
const BURST = 40;
const PAGE = `/v1/customers/${HEAVY}/scenario-executions?limit=200`;

const lines = [companyLine(P, COMPANY, 'f1e2d3c4-b5a6-4978-8a9b-0c1d2e3f4a5b'), companyLine(P, HEAVY, 'a1e2d3c4-b5a6-4978-8a9b-0c1d2e3f4a5b')];
for (let i = 0; i < 250; i++) lines.push(executionLine(P, HEAVY, i));

// Database 6: apart from the Redis limiter unit tests (database 5, which they flush); every key here is new.
const REDIS_URL = process.env.TEST_REDIS_URL_COST ?? 'redis://127.0.0.1:6379/6';
const { client: probe, wanted: withRedis } = await testRedis(REDIS_URL);
probe.disconnect();
if (!withRedis) console.log(`Redis not reachable at ${REDIS_URL}: skipped the Redis half of the answer cost tests`);

const limiters: [string, boolean, () => Promise<RateLimiter>][] = [
  ['in-process limiter', true, async () => new MemoryRateLimiter(BURST, 0.001)],
  ['Redis limiter', withRedis, () => openRedisRateLimiter(REDIS_URL, BURST, 0.001)],
];

for (const [name, enabled, open] of limiters) {
  describe.runIf(enabled)(`answer cost on the ${name}`, () => {
    let svc: TestService;
    let limiter: RateLimiter;
    beforeAll(async () => {
      limiter = await open();
      svc = await startTestService(lines, { limiter });
    });
    afterAll(async () => {
      await svc?.close();
      await limiter?.close();
    });

    /** Statuses and RateLimit-Remaining of `n` requests to `path` with one new key, one after another. */
    async function spend(path: string, encoding: string, n: number): Promise<{ status: number; remaining: number; encoding: string | null }[]> {
      const { key } = await svc.key(P);
      const out = [];
      for (let i = 0; i < n; i++) {
        const res = await fetch(`${svc.url}${path}`, { headers: { authorization: `Bearer ${key}`, 'accept-encoding': encoding } });
        await res.arrayBuffer();
        out.push({ status: res.status, remaining: Number(res.headers.get('ratelimit-remaining')), encoding: res.headers.get('content-encoding') });
      }
      return out;
    }

    it('a key reading companies gets its whole burst, one token each', async () => {
      const answers = await spend(`/v1/companies/${COMPANY}/details`, 'gzip', BURST + 2);
      expect(answers.map((a) => a.status)).toEqual([...Array<number>(BURST).fill(200), 429, 429]);
      expect(answers.slice(0, 3).map((a) => a.remaining)).toEqual([BURST - 1, BURST - 2, BURST - 3]);
    });

    it('a key asking for 200-item pages pays 4 tokens a page (200 items, about 100 KB) and is refused after a quarter as many requests', async () => {
      const answers = await spend(PAGE, 'gzip', 12);
      // The door takes 1 (39 left); the other 3 are debited once the page is built, seen by the next request.
      expect(answers.slice(0, 3).map((a) => a.remaining)).toEqual([BURST - 1, BURST - 5, BURST - 9]);
      expect(answers.map((a) => a.status)).toEqual([...Array<number>(BURST / 4).fill(200), 429, 429]);
      expect(answers[0]!.encoding).toBe('gzip');
    });

    it('a page compressed per request (br only) costs twice as much', async () => {
      const answers = await spend(PAGE, 'br', 7);
      expect(answers[0]!.encoding).toBe('br');
      expect(answers.slice(0, 3).map((a) => a.remaining)).toEqual([BURST - 1, BURST - 9, BURST - 17]);
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 429, 429]);
    });

    it('serves the stored gzip, not br, when both are acceptable, even with br weighted higher', async () => {
      for (const accept of ['br, gzip', 'br;q=1, gzip;q=0.5', 'br, gzip;q=0.01']) {
        const [answer] = await spend(PAGE, accept, 1);
        expect({ accept, encoding: answer!.encoding }).toEqual({ accept, encoding: 'gzip' });
      }
      const [brOnly] = await spend(PAGE, 'br, gzip;q=0', 1);
      expect(brOnly!.encoding).toBe('br');
    });
  });
}
