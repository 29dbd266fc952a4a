/** One measurement: autocannon, in this process, against one target with a random request each time. */
import { createRequire } from 'node:module';
import autocannon from 'autocannon';
import type { RequestSpec } from './scenarios.js';

// autocannon 8 appends every response body to a string (`req.body += data`), which decodes it as
// UTF-8: on binary bodies (gzip) that costs the load generator, in this process, about twice what
// ASCII does (a bare server's 4,000-byte answers: 40,800 req/s of ASCII, 20,800 of random bytes),
// and it then limited the ceiling's gzip rows. The bench never reads bodies, so none are kept.
const queue = createRequire(import.meta.url)('autocannon/lib/pipelinedRequestsQueue.js') as { prototype: { addBody: (data: Buffer) => void } };
queue.prototype.addBody = () => undefined;

export interface LoadResult {
  rps: number;
  /** Milliseconds, from every response's own timing (autocannon's histogram rounds to whole ms). */
  p50: number;
  p99: number;
  responses: number;
  /** Wire bytes per response, headers included (autocannon's byte count ÷ responses). */
  bytesPerResponse: number;
  /** Answers with another status than expected, plus socket errors and timeouts. */
  unexpected: number;
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

/** Drives `base` with `connections` for `seconds`, each request drawn at random from `requests`. */
export async function runLoad(base: string, requests: RequestSpec[], connections: number, seconds: number, expect: number): Promise<LoadResult> {
  if (requests.length === 0) throw new Error('no requests to send');
  let latencies = new Float64Array(1 << 16);
  let n = 0;
  let unexpected = 0;
  let bytes = 0;
  const instance = autocannon({
    url: base,
    connections,
    duration: seconds,
    timeout: 30,
    // autocannon only notices the end of `duration` on its sampling tick (1 s by default), which
    // would round every short window up to a whole second.
    sampleInt: 100,
    requests: [
      {
        method: 'GET',
        // Called before every request: a uniformly random id, so no one record stays hot in caches.
        setupRequest: (req) => {
          const r = requests[Math.floor(Math.random() * requests.length)]!;
          return { ...req, path: r.path, headers: r.headers };
        },
      },
    ],
  });
  instance.on('response', (_client: unknown, status: number, resBytes: number, ms: number) => {
    if (n === latencies.length) {
      const grown = new Float64Array(n * 2);
      grown.set(latencies);
      latencies = grown;
    }
    latencies[n++] = ms;
    bytes += resBytes;
    if (status !== expect) unexpected += 1;
  });
  const result = await instance;
  const sorted = latencies.subarray(0, n).sort();
  return {
    rps: n / result.duration,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    responses: n,
    bytesPerResponse: n === 0 ? 0 : bytes / n,
    unexpected: unexpected + result.errors + result.timeouts,
  };
}
