/** Socket limits as a client meets them: oversized headers, slow headers, idle keep-alive connections. */
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/load-config.js';
import { startService, type Service } from './service.js';

let dir: string;
let svc: Service;
let port: number;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'crs-limits-'));
  const config = loadConfig(
    {},
    { DATABASE_URL: join(dir, 'store.db'), HOST: '127.0.0.1', PORT: '0', MAX_HEADER_BYTES: '2048', HEADERS_TIMEOUT_MS: '500', KEEP_ALIVE_TIMEOUT_MS: '300' },
  );
  svc = await startService(config, { logger: false });
  port = Number(new URL(svc.url).port);
});
afterAll(async () => {
  await svc?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Writes `text` on a new connection and collects everything until the server closes it. */
function exchange(text: string, opts: { keepOpen?: boolean } = {}): Promise<{ reply: string; closedAfterMs: number }> {
  return new Promise((resolve, reject) => {
    const socket: Socket = connect({ host: '127.0.0.1', port });
    let reply = '';
    let sentAt = 0;
    socket.on('data', (d) => (reply += d.toString()));
    socket.once('error', reject);
    socket.once('close', () => resolve({ reply, closedAfterMs: Date.now() - sentAt }));
    socket.once('connect', () => {
      sentAt = Date.now();
      socket.write(text);
      if (!opts.keepOpen) socket.end();
    });
  });
}

/** The JSON body of a raw HTTP response. */
function bodyOf(reply: string): unknown {
  return JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4));
}

describe('server limits', () => {
  it('answers 431 with the error body when the headers exceed MAX_HEADER_BYTES', async () => {
    const { reply } = await exchange(`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Padding: ${'a'.repeat(4096)}\r\n\r\n`);
    expect(reply).toMatch(/^HTTP\/1\.1 431 /);
    expect(reply).toMatch(/\r\nConnection: close\r\n/i);
    expect(bodyOf(reply)).toEqual({ message: expect.any(String), code: 'invalid_request', issues: [] });
  });

  it('serves headers just under the limit', async () => {
    const res = await fetch(`${svc.url}/healthz`, { headers: { 'x-padding': 'a'.repeat(1500) } });
    expect(res.status).toBe(200);
  });

  it('answers 408 and closes when the headers do not arrive within HEADERS_TIMEOUT_MS', async () => {
    const { reply, closedAfterMs } = await exchange('GET /healthz HTTP/1.1\r\nHost: x\r\n', { keepOpen: true });
    expect(reply).toMatch(/^HTTP\/1\.1 408 /);
    expect(bodyOf(reply)).toEqual({ message: expect.any(String), code: 'invalid_request', issues: [] });
    expect(closedAfterMs).toBeLessThan(10_000); // not stuck: Node's default check interval alone is 30 s
  });

  it('closes an idle keep-alive connection after KEEP_ALIVE_TIMEOUT_MS', async () => {
    const { reply, closedAfterMs } = await exchange('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n', { keepOpen: true });
    expect(reply).toMatch(/^HTTP\/1\.1 200 /);
    expect(closedAfterMs).toBeLessThan(10_000);
  });
});

describe('connections per client address', () => {
  it('answers a connection past MAX_CONNECTIONS_PER_ADDRESS with 503 and the error body, closes it, and counts it', async () => {
    const token = 'metrics-token-for-the-cap-test';
    const capped = await startService(
      loadConfig({}, { DATABASE_URL: join(dir, 'capped.db'), HOST: '127.0.0.1', PORT: '0', MAX_CONNECTIONS_PER_ADDRESS: '1', METRICS_TOKEN: token }),
      { logger: false },
    );
    const cappedPort = Number(new URL(capped.url).port);
    const held = connect({ host: '127.0.0.1', port: cappedPort });
    try {
      await new Promise((resolve, reject) => held.once('connect', resolve).once('error', reject));
      const reply = await new Promise<string>((resolve, reject) => {
        const socket = connect({ host: '127.0.0.1', port: cappedPort });
        let text = '';
        socket.on('data', (d) => (text += d.toString()));
        socket.once('error', reject);
        socket.once('close', () => resolve(text));
      });
      expect(reply).toMatch(/^HTTP\/1\.1 503 /);
      expect(bodyOf(reply)).toEqual({ message: expect.any(String), code: 'unavailable', issues: [] });
      held.destroy();
      // The held connection's slot frees once the server sees it close.
      await expect
        .poll(async () => {
          const res = await fetch(`${capped.url}/metrics`, { headers: { authorization: `Bearer ${token}`, connection: 'close' } }).catch(() => undefined);
          return res?.status === 200 ? await res.text() : '';
        })
        .toMatch(/^crs_connections_cut_total\{reason="per_address"\} [1-9]\d*$/m);
    } finally {
      held.destroy();
      await capped.close();
    }
  });
});
