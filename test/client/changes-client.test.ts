/** The client's change feed: one page, a catch-up that stops at the first empty page, and a follow that polls until aborted. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientError, createClient, type ComplianceClient } from '../../src/client/client.js';
import type { Change } from '../../src/contract/change.js';
import { feedSettled, importLines, plainCustomerLine } from '../support/changes-feed.js';
import { startTestService, type TestService } from '../support/test-service.js';

const P = 'proj-client-feed';
const ids = Array.from({ length: 5 }, (_, i) => `d00dfeed-0000-4000-8000-${String(i).padStart(12, '0')}`);

let svc: TestService;
let client: ComplianceClient;

beforeAll(async () => {
  svc = await startTestService(ids.map((id) => plainCustomerLine(P, id, 'Company')));
  await feedSettled(svc.dbUrl);
  client = createClient({ baseUrl: `${svc.url}/v1`, apiKey: (await svc.key(P, { scopes: ['changes:read'] })).key });
});
afterAll(async () => svc?.close());

describe('change feed client', () => {
  it('lists one page, whose next is there even when the page is the last', async () => {
    const page = await client.listChanges({ limit: 2 });
    expect(page.items.map((c) => c.id)).toEqual(ids.slice(0, 2));
    expect(page.nextUrl).toMatch(/\/v1\/changes\?limit=2&after=/);
    let last = page;
    while (last.items.length > 0) last = await last.next!();
    expect(last.items).toEqual([]);
    expect(last.next).toBeDefined();
  });

  it('catches up page after page and stops at the first empty page', async () => {
    const seen: Change[] = [];
    for await (const c of client.iterateChanges({ limit: 2 })) seen.push(c);
    expect(seen.map((c) => c.id)).toEqual(ids);
    expect(seen.every((c) => c.kind === 'company' && c.operation === 'upsert')).toBe(true);
  });

  it('follows the feed, yielding a change stored while it waits, until its signal aborts', async () => {
    const first = await client.listChanges({ limit: 1000 });
    const after = new URL(first.nextUrl!).searchParams.get('after')!;
    const stop = new AbortController();
    const seen: string[] = [];
    const NEW = 'd00dfeed-0000-4000-8000-000000000099';
    const following = (async () => {
      for await (const c of client.followChanges({ after, wait: 20 }, { signal: stop.signal })) {
        seen.push(c.id);
        stop.abort();
      }
    })();
    await new Promise((r) => setTimeout(r, 200));
    await importLines(svc.store, [plainCustomerLine(P, NEW, 'Individual')]);
    await following;
    expect(seen).toEqual([NEW]);
  });

  it('ends a follow that is aborted while nothing changes, without an error', async () => {
    const stop = new AbortController();
    const first = await client.listChanges({ limit: 1000 });
    const after = new URL(first.nextUrl!).searchParams.get('after')!;
    setTimeout(() => stop.abort(), 300);
    const seen: Change[] = [];
    for await (const c of client.followChanges({ after }, { signal: stop.signal })) seen.push(c);
    expect(seen).toEqual([]);
    expect(stop.signal.aborted).toBe(true);
  });

  it('throws a ClientError naming after for a cursor of another project', async () => {
    const other = createClient({ baseUrl: `${svc.url}/v1`, apiKey: (await svc.key('another-project', { scopes: ['changes:read'] })).key });
    const foreign = new URL((await other.listChanges()).nextUrl!).searchParams.get('after')!;
    const err = await client.listChanges({ after: foreign }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ClientError);
    expect((err as ClientError).status).toBe(400);
    expect(JSON.stringify((err as ClientError).body)).toContain('after:');
  });
});
