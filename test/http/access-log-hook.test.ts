/** What the access log hook keeps of the records an answer names: bounded, and nothing for a refusal. */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANSWER_RECORD_CHARS, MAX_ANSWER_RECORDS } from '../../src/access-log/access-log.js';
import { AccessLogWriter } from '../../src/access-log/writer.js';
import { accessLogHook, noteAnswerRecords } from '../../src/http/access-log-hook.js';
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
  await app.ready();
});
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
});
