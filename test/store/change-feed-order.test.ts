/**
 * The feed's no-skip guarantee under concurrent writers, on both stores: PostgreSQL transactions
 * committing in the reverse order of their sequence numbers, and several importing processes
 * at once while a consumer polls GET /v1/changes over HTTP.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import type { Change } from '../../src/contract/change.js';
import { recordKey } from '../../src/contract/record-key.js';
import { LocalFileStore } from '../../src/files/local-file-store.js';
import { MemoryRateLimiter } from '../../src/http/rate-limit.js';
import { buildServer } from '../../src/http/server.js';
import { createApiKey } from '../../src/store/api-keys.js';
import { changeOf } from '../../src/store/change-items.js';
import { writeChanges } from '../../src/store/postgres/postgres-changes.js';
import type { ChangePosition, Store } from '../../src/store/store.js';
import { feedPage, feedSettled, plainCustomerLine } from '../support/changes-feed.js';
import { freePort } from '../support/cli-process.js';
import { harness, openTracked, storeHarnesses, type Harness } from '../support/store-harness.js';
import { postgresWanted } from '../support/stores.js';
import { customer, day } from '../support/upserts.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const openHarness = (h: Harness): Promise<Store> => openTracked(h, cleanups);

/** Polls the store's feed from `cursor` into `seen` every few milliseconds until `stop()`. */
function consume(store: Store, project: string, seen: string[], stop: () => boolean): Promise<void> {
  let cursor: ChangePosition | undefined;
  return (async () => {
    for (;;) {
      const page = await store.listChanges(project, cursor, 100);
      for (const c of page) seen.push(c.recordKey);
      if (page.length > 0) cursor = page[page.length - 1]!.position;
      else if (stop()) return;
      await new Promise((r) => setTimeout(r, 5));
    }
  })();
}

describe.skipIf(!postgresWanted)('PostgreSQL: positions are not in commit order', () => {
  it('serves nothing past a transaction still open, so one committing after a later sequence number is not skipped', async () => {
    const h = harness('postgres');
    const store = await openHarness(h);
    const P = 'order-p';
    const first = new pg.Client({ connectionString: h.url });
    const second = new pg.Client({ connectionString: h.url });
    await first.connect();
    await second.connect();
    cleanups.push(async () => {
      await first.end();
      await second.end();
    });
    const seen: string[] = [];
    let done = false;
    const consumer = consume(store, P, seen, () => done);
    // The first transaction takes the lower sequence number, the second the higher one.
    await first.query('BEGIN');
    await writeChanges(first, [changeOf(customer(P, 'early', day(1)), new Date().toISOString())]);
    await second.query('BEGIN');
    await writeChanges(second, [changeOf(customer(P, 'late', day(1)), new Date().toISOString())]);
    const seqs = await first.query<{ record_key: string; seq: string }>(`SELECT record_key, seq::text AS seq FROM changes WHERE project = $1`, [P]);
    expect(seqs.rows.map((r) => r.record_key)).toEqual(['early']);
    // The higher number commits first: a reader by sequence number alone would now serve it and move past 'early'.
    await second.query('COMMIT');
    const plain = await store.listChanges(P, undefined, 10);
    expect(plain).toEqual([]);
    await new Promise((r) => setTimeout(r, 200));
    expect(seen).toEqual([]);
    await first.query('COMMIT');
    await feedSettled(h.url);
    done = true;
    await consumer;
    expect([...seen].sort()).toEqual(['early', 'late']);
    // Once both ended, the feed is in (xid, seq) order: the first transaction's entry first.
    expect((await store.listChanges(P, undefined, 10)).map((c) => c.recordKey)).toEqual(['early', 'late']);
  });

  it('serves an entry moved by a transaction that began before the consumer read past its old place', async () => {
    const h = harness('postgres');
    const store = await openHarness(h);
    const P = 'move-p';
    await store.writeBatch([customer(P, 'a', day(1)), customer(P, 'b', day(1))]);
    await feedSettled(h.url);
    const open = new pg.Client({ connectionString: h.url });
    await open.connect();
    cleanups.push(() => open.end());
    await open.query('BEGIN');
    await writeChanges(open, [changeOf(customer(P, 'a', day(2), true, 'v2'), new Date().toISOString())]);
    const page = await store.listChanges(P, undefined, 10);
    expect(page.map((c) => c.recordKey)).toEqual(['a', 'b']);
    await open.query('COMMIT');
    await feedSettled(h.url);
    const next = await store.listChanges(P, page[1]!.position, 10);
    expect(next.map((c) => c.recordKey)).toEqual(['a']);
  });
});

describe('SQLite: a position is never given twice', () => {
  it('gives a moved entry a position past every other, even when it was the last one', async () => {
    const store = await openHarness(harness('sqlite'));
    const P = 'seq-p';
    await store.writeBatch([customer(P, 'a', day(1)), customer(P, 'b', day(1))]);
    const page = await store.listChanges(P, undefined, 10);
    expect(page.map((c) => c.recordKey)).toEqual(['a', 'b']);
    // 'b' holds the highest position; moving it must not reuse that position.
    await store.writeBatch([customer(P, 'b', day(2), true, 'v2')]);
    const next = await store.listChanges(P, page[1]!.position, 10);
    expect(next.map((c) => c.recordKey)).toEqual(['b']);
    expect(Number(next[0]!.position.seq)).toBeGreaterThan(Number(page[1]!.position.seq));
  });
});

/** Runs test/support/import-child.ts on `file` against `url`; resolves with its summary. */
function importInChild(url: string, file: string, batch: number): Promise<{ stored: number; rejected: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/import-child.ts', url, file, String(batch)], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) reject(new Error(`import child exited ${code}: ${err}`));
      else resolve(JSON.parse(out.trim().split('\n').at(-1)!) as { stored: number; rejected: number });
    });
  });
}

const STATUSES = ['Active', 'Rejected', 'Dormant'];

describe.each(storeHarnesses())('$adapter: importing processes while a consumer polls over HTTP', ({ make }) => {
  it("sees every record, and each record's last ETag, without skipping any", async () => {
    const h = make();
    const store = await openHarness(h);
    const dir = mkdtempSync(join(tmpdir(), 'feed-order-'));
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    const P = 'busy-p';
    const secret = await store.secret();
    const port = await freePort();
    const app = await buildServer({
      store,
      limiter: new MemoryRateLimiter(1_000_000, 1_000_000),
      refusals: new MemoryRateLimiter(1_000_000, 1_000_000),
      files: new LocalFileStore({ dir: join(dir, 'files'), secret, publicBaseUrl: `http://127.0.0.1:${port}`, basePath: '/v1', ttlSeconds: 900 }),
      logger: false,
      basePath: '/v1',
      cacheControl: 'no-store',
      accessLog: false,
    });
    const url = await app.listen({ port, host: '127.0.0.1' });
    cleanups.push(() => app.close());
    // A mirror's key, reading the companies it follows with every field: the feed's etags are then the stored records' own.
    const { key } = await createApiKey(store, { project: P, scopes: ['changes:read', 'companies:read', 'pii:read', 'documents:read', 'screening:read'] });

    // Three processes write 120 shared companies in three rounds each, in batches of 20.
    const ids = Array.from({ length: 120 }, (_, i) => `c0ffee00-0000-4000-8000-${String(i).padStart(12, '0')}`);
    const files = [0, 1, 2].map((child) => {
      const lines = [0, 1, 2].flatMap((round) => ids.map((id, i) => plainCustomerLine(P, id, 'Company', STATUSES[(child + round + i) % 3])));
      const file = join(dir, `child-${child}.ndjson`);
      writeFileSync(file, lines.join('\n') + '\n');
      return file;
    });

    const lastSeen = new Map<string, string>();
    let polls = 0;
    let importing = true;
    const consumer = (async () => {
      let next = '/v1/changes?limit=50&wait=1';
      for (;;) {
        const page = await feedPage(url, next, key);
        if (page.status !== 200) throw new Error(`feed answered ${page.status}`);
        polls++;
        for (const c of page.items as Change[]) lastSeen.set(c.id, c.etag!);
        next = page.next!;
        if (page.items.length === 0 && !importing) return;
      }
    })();
    let summaries: { stored: number; rejected: number }[];
    try {
      summaries = await Promise.all(files.map((f) => importInChild(h.url, f, 20)));
      await feedSettled(h.url);
    } finally {
      // The consumer catches up with what is committed, then stops at its first empty page.
      importing = false;
      await consumer;
    }
    for (const s of summaries) expect(s.rejected).toBe(0);
    // Most rounds stored new versions: records moved in the feed while the consumer read it.
    expect(summaries.reduce((n, s) => n + s.stored, 0)).toBeGreaterThan(2 * ids.length);
    expect(polls).toBeGreaterThan(1);
    expect(lastSeen.size).toBe(ids.length);
    for (const id of ids) {
      const stored = await store.getCompany(P, recordKey(id));
      expect(lastSeen.get(id)).toBe(stored!.etag);
    }
  });
});
