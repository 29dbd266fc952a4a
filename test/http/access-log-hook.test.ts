/** What the access log hook keeps of the records an answer names: bounded, and nothing for a refusal. */
import { connect } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANSWER_RECORD_CHARS, MAX_ANSWER_RECORDS } from '../../src/access-log/access-log.js';
import { AccessLogWriter } from '../../src/access-log/writer.js';
import { accessLogHook, CLIENT_CLOSED, noteAnswerRecords } from '../../src/http/access-log-hook.js';
import { openTestStore, type TestStore } from '../support/store-harness.js';

const MANY = Array.from({ length: MAX_ANSWER_RECORDS + 200 }, (_, i) => `rec-${i}`);
const LONG = 'x'.repeat(ANSWER_RECORD_CHARS + 100);

let ts: TestStore;
let app: FastifyInstance;
let writer: AccessLogWriter;

beforeAll(async () => {
  ts = await openTestStore();
  writer = new AccessLogWriter(ts.store, undefined, { flushMs: 60_000 });
  app = Fastify({ requestIdHeader: 'x-request-id' });
  accessLogHook(app, '/v1', writer);
  app.get('/v1/many', async (request) => {
    noteAnswerRecords(request, [LONG, 'nul\u0000here', ...MANY]);
    return [];
  });
  app.get('/v1/failing', async (request) => {
    noteAnswerRecords(request, ['seen-by-nobody']);
    throw new Error('the answer failed after its records were named');
  });
  app.get('/v1/empty', async (request) => {
    noteAnswerRecords(request, []);
    return [];
  });
  app.get('/v1/slow', async (request) => {
    await new Promise((r) => setTimeout(r, 50));
    noteAnswerRecords(request, ['held-back']);
    return [];
  });
  // Larger than the loopback's socket buffers: a client that stops reading leaves it unsent.
  app.get('/v1/big', async (request, reply) => {
    noteAnswerRecords(request, ['partly-sent']);
    return reply.type('application/json').send(Buffer.alloc(64 * 1024 * 1024, 0x20));
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
});

/** Sends a GET and closes the connection once `received` bytes of the answer came back (0: at once). */
function hangUp(path: string, id: string, received: number): Promise<void> {
  const { port } = app.server.address() as { port: number };
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(`GET ${path} HTTP/1.1\r\nhost: x\r\nx-request-id: ${id}\r\n\r\n`);
      if (received === 0) {
        socket.destroy();
        resolve();
      }
    });
    let got = 0;
    socket.on('data', (chunk: Buffer) => {
      got += chunk.length;
      if (got >= received) {
        socket.destroy();
        resolve();
      }
    });
    socket.on('error', reject);
  });
}
afterAll(async () => {
  await app?.close();
  await writer?.close();
  await ts?.store.close();
  await ts?.cleanup();
});

describe('the access log hook', () => {
  it('keeps at most MAX_ANSWER_RECORDS returned keys, each cut to ANSWER_RECORD_CHARS and storable; none for a failed answer or an empty list', async () => {
    for (const [url, id] of [['/v1/many', 'many'], ['/v1/failing', 'failing'], ['/v1/empty', 'empty']] as const) {
      await app.inject({ method: 'GET', url, headers: { 'x-request-id': id } });
    }
    await writer.flush();
    const log = await ts.store.queryAccessLog({ project: '', limit: 10 });
    const byId = new Map(log.map((e) => [e.requestId, e]));
    const many = byId.get('many')!.records!;
    expect(many).toHaveLength(MAX_ANSWER_RECORDS);
    expect(many.slice(0, 3)).toEqual([LONG.slice(0, ANSWER_RECORD_CHARS), 'nul\ufffdhere', 'rec-0']);
    expect(many.at(-1)).toBe(`rec-${MAX_ANSWER_RECORDS - 3}`);
    expect(byId.get('failing')).toMatchObject({ status: 500 });
    expect(byId.get('failing')).not.toHaveProperty('records');
    expect(byId.get('empty')).toMatchObject({ status: 200 });
    expect(byId.get('empty')).not.toHaveProperty('records');
    // The cut key finds the read; keys past the bound do not.
    expect((await ts.store.queryAccessLog({ project: '', recordId: LONG.slice(0, ANSWER_RECORD_CHARS), limit: 10 })).map((e) => e.requestId)).toEqual(['many']);
    expect(await ts.store.queryAccessLog({ project: '', recordId: `rec-${MAX_ANSWER_RECORDS}`, limit: 10 })).toEqual([]);
  });

  it('writes the entry of an answer whose client hung up before it was sent, or while it was written, as 499', async () => {
    await Promise.all([...Array.from({ length: 10 }, (_, i) => hangUp('/v1/slow', `gone-${i}`, 0)), hangUp('/v1/big', 'cut', 1024 * 1024)]);
    let log: Awaited<ReturnType<typeof ts.store.queryAccessLog>> = [];
    for (let i = 0; i < 100 && log.filter((e) => e.requestId.startsWith('gone-') || e.requestId === 'cut').length < 11; i++) {
      await new Promise((r) => setTimeout(r, 50));
      await writer.flush();
      log = await ts.store.queryAccessLog({ project: '', limit: 100 });
    }
    const gone = log.filter((e) => e.requestId.startsWith('gone-'));
    // Each written once, naming its client; none of these answers reached it, so no records.
    expect(gone.map((e) => e.requestId).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `gone-${i}`).sort());
    for (const e of gone) {
      expect(e).toMatchObject({ status: CLIENT_CLOSED, route: '/v1/slow', client: '127.0.0.1' });
      expect(e).not.toHaveProperty('records');
    }
    // Part of this one reached the client: what it carried is named.
    expect(log.filter((e) => e.requestId === 'cut')).toEqual([expect.objectContaining({ status: CLIENT_CLOSED, route: '/v1/big', records: ['partly-sent'] })]);
  });
});
