/** The connection guard as clients meet it: per-address cap, one answer at a time, stalled and slow readers cut. */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ConnectionGuard, guardedServer, type ConnectionLimits } from './connection-guard.js';

const LARGE = 32 * 1024 * 1024; // more than loopback's socket buffers take before the writer must wait

let servers: Server[] = [];
let sockets: Socket[] = [];
afterEach(async () => {
  for (const s of sockets) s.destroy();
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  servers = [];
  sockets = [];
});

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

async function serve(limits: Partial<ConnectionLimits>, handler: Handler): Promise<{ port: number; guard: ConnectionGuard }> {
  const guard = new ConnectionGuard({ maxConnectionsPerAddress: 0, writeStallTimeout: 10_000, slowReaderBytes: 1 << 30, ...limits });
  const server = guardedServer({}, handler, guard);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, guard };
}

/** A connection that collects what it reads; `paused` reads nothing. */
function open(port: number, opts: { paused?: boolean } = {}): Promise<{ socket: Socket; text: () => string; closed: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    sockets.push(socket);
    let text = '';
    const closed = new Promise<void>((done) => socket.once('close', () => done()));
    socket.on('error', () => undefined);
    if (opts.paused) socket.pause();
    else socket.on('data', (d: Buffer) => (text += d.toString('latin1')));
    socket.once('connect', () => resolve({ socket, text: () => text, closed }));
    socket.once('error', reject);
  });
}

const get = (path: string): string => `GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`;

/** Resolves with the response once it closes, saying whether it was sent whole. */
function outcome(res: ServerResponse): Promise<'finished' | 'cut'> {
  return new Promise((resolve) => res.once('close', () => resolve(res.writableFinished ? 'finished' : 'cut')));
}

describe('connection guard', () => {
  it('answers a connection past the per-address cap with 503 and closes it, and serves again once one leaves', async () => {
    const { port, guard } = await serve({ maxConnectionsPerAddress: 1 }, (_req, res) => res.end('ok'));
    const first = await open(port);
    const second = await open(port);
    await second.closed;
    expect(second.text()).toMatch(/^HTTP\/1\.1 503 /);
    expect(JSON.parse(second.text().slice(second.text().indexOf('\r\n\r\n') + 4))).toMatchObject({ code: 'unavailable', issues: [] });
    expect(guard.cut.perAddress).toBe(1);
    first.socket.destroy();
    await first.closed;
    const third = await open(port);
    third.socket.write(`GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    await third.closed;
    expect(third.text()).toMatch(/^HTTP\/1\.1 200 [^]*\r\n\r\nok$/);
  });

  it('does not start a pipelined request while the answer before it is unsent', async () => {
    const events: string[] = [];
    let first: ServerResponse | undefined;
    const { port } = await serve({}, (req, res) => {
      if (req.url === '/first') {
        first = res;
        events.push('start /first');
        return;
      }
      events.push(`start ${req.url}, first answer sent: ${first?.writableFinished}`);
      res.end('second');
    });
    const client = await open(port);
    client.socket.write(get('/first') + get('/second'));
    await expect.poll(() => events.length).toBe(1);
    // Both requests have arrived; the first answer is still held by its handler.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(events).toEqual(['start /first']);
    first!.end('first');
    await expect.poll(() => events.length).toBe(2);
    expect(events).toEqual(['start /first', 'start /second, first answer sent: true']);
    await expect.poll(() => client.text()).toMatch(/first[^]*second$/);
  });

  it('closes a connection with more pipelined requests waiting than it may queue', async () => {
    const { port, guard } = await serve({}, () => undefined);
    const client = await open(port);
    client.socket.write(get('/').repeat(20));
    await client.closed;
    expect(guard.cut.pipelined).toBe(1);
  });

  it('writes a large answer whole to a reader that reads', async () => {
    const body = Buffer.alloc(3 * 1024 * 1024 + 5, 'abcdefgh');
    const { port } = await serve({}, (_req, res) => {
      res.setHeader('content-length', body.length);
      res.end(body);
    });
    const res = await fetch(`http://127.0.0.1:${port}/`);
    const got = Buffer.from(await res.arrayBuffer());
    expect(got.equals(body)).toBe(true);
  });

  it('cuts a reader that takes nothing for longer than the stall time-out', async () => {
    const results: Promise<'finished' | 'cut'>[] = [];
    const { port, guard } = await serve({ writeStallTimeout: 300 }, (_req, res) => {
      results.push(outcome(res));
      res.end(Buffer.alloc(LARGE));
    });
    const client = await open(port, { paused: true });
    client.socket.write(get('/'));
    await expect.poll(() => results.length).toBe(1);
    expect(await results[0]).toBe('cut');
    expect(guard.cut.stalled).toBe(1);
  });

  it('cuts the answer waiting longest when all waiting answers pass the slow-reader budget', async () => {
    const results: Promise<'finished' | 'cut'>[] = [];
    const { port, guard } = await serve({ slowReaderBytes: LARGE + LARGE / 2 }, (_req, res) => {
      results.push(outcome(res));
      res.end(Buffer.alloc(LARGE));
    });
    const older = await open(port, { paused: true });
    older.socket.write(get('/'));
    await expect.poll(() => guard.heldBytes).toBe(LARGE);
    const newer = await open(port, { paused: true });
    newer.socket.write(get('/'));
    expect(await results[0]).toBe('cut');
    expect(guard.cut.slowReaderBudget).toBe(1);
    expect(guard.heldBytes).toBe(LARGE);
    newer.socket.destroy();
    expect(await results[1]).toBe('cut');
    expect(guard.heldBytes).toBe(0);
  });
});
