/** One raw GET over a keep-alive agent: status, headers as sent, and the body bytes untouched. */
import http from 'node:http';

export interface RawResponse {
  status: number;
  /** Header names and values in wire order, flat (as node's rawHeaders). */
  rawHeaders: string[];
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });

/** GETs base+path with these headers; no decompression, so gzip bodies stay as served. */
export function get(base: string, path: string, headers: Record<string, string>, timeoutMs = 30_000): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${base}${path}`, { headers, agent, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, rawHeaders: res.rawHeaders, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`GET ${path} timed out`)));
    req.on('error', reject);
  });
}

/** Closes idle keep-alive sockets so the bench process can exit. */
export function closeAgent(): void {
  agent.destroy();
}

/** The target of a Link header's rel="next", if any. */
export function nextLink(headers: http.IncomingHttpHeaders): string | undefined {
  const link = headers.link;
  if (link === undefined) return undefined;
  const m = /<([^>]+)>\s*;\s*rel="?next"?/.exec(Array.isArray(link) ? link.join(',') : link);
  if (m === null) return undefined;
  // Keep only path and query: the bench sends them to the same origin it asked.
  return m[1]!.startsWith('http') ? ((u) => `${u.pathname}${u.search}`)(new URL(m[1]!)) : m[1];
}
