/** The test Redis: a client that never retries, and whether the Redis tests run. */
import { Redis } from 'ioredis';

/**
 * Connects a client to `url`. The Redis tests run when it answers, or when CI is set (where a
 * missing Redis must fail the run rather than pass silently).
 */
export async function testRedis(url: string): Promise<{ client: Redis; reachable: boolean; wanted: boolean }> {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 1000 });
  client.on('error', () => undefined);
  const reachable = await client.connect().then(
    () => true,
    () => false,
  );
  return { client, reachable, wanted: reachable || process.env.CI !== undefined };
}
