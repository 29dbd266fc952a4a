/**
 * Connections PostgreSQL can no longer answer on, dropped without a FIN or RST (a NAT's idle
 * time-out, a failover behind a shared address): queries fail within their client-side deadline
 * as unavailable, the replica's reads fall back to the primary, closing finishes, and a LISTEN
 * connection dropped that way stops vouching for cached keys within seconds.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { StoreUnavailableError } from '../../../src/store/store-errors.js';
import { openPostgresStore, type PostgresStore } from '../../../src/store/postgres/postgres-store.js';
import { createApiKey } from '../../../src/store/api-keys.js';
import { ApiKeyVerifier } from '../../../src/http/api-keys.js';
import { TRUST_MS } from '../../../src/store/postgres/listen-connection.js';
import { throwawaySchema, type ThrowawaySchema } from '../../support/postgres-admin.js';
import { postgresWanted } from '../../support/stores.js';
import { startTcpProxy, type TcpProxy } from '../../support/tcp-proxy.js';

/** Server-side time-out of the stores here: their client-side deadline is a second past it. */
const STATEMENT_TIMEOUT_MS = 1000;
const DEADLINE_MS = STATEMENT_TIMEOUT_MS + 1000;

describe.runIf(postgresWanted)('PostgreSQL connections dropped silently', () => {
  let schema: ThrowawaySchema;
  let direct: PostgresStore;
  const opened: PostgresStore[] = [];
  let proxy: TcpProxy;

  const viaProxy = async (options: { readOnlyThroughProxy?: boolean } = {}): Promise<PostgresStore> => {
    const store = options.readOnlyThroughProxy
      ? await openPostgresStore(schema.url, { readUrl: proxy.via(schema.url), poolSize: 2, statementTimeoutMs: STATEMENT_TIMEOUT_MS })
      : await openPostgresStore(proxy.via(schema.url), { poolSize: 2, statementTimeoutMs: STATEMENT_TIMEOUT_MS });
    opened.push(store);
    return store;
  };

  beforeAll(async () => {
    schema = throwawaySchema('silent_drops_test');
    await schema.create();
    direct = await openPostgresStore(schema.url, { poolSize: 2 });
  });
  afterEach(async () => {
    for (const s of opened.splice(0)) await s.close();
    await proxy?.close();
  });
  afterAll(async () => {
    await direct?.close();
    await schema?.drop().catch(() => undefined);
  });

  it('fails a query through a blackholed link within its deadline as unavailable, and reconnects once the link is back', async () => {
    proxy = await startTcpProxy(5432);
    const store = await viaProxy();
    await store.ping();
    proxy.blackhole();
    const started = Date.now();
    const err = await store.ping().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreUnavailableError);
    expect(Date.now() - started).toBeLessThan(DEADLINE_MS + 1500);
    proxy.normal();
    await expect(store.ping()).resolves.toBeUndefined();
  }, 15_000);

  it('answers a read from the primary when the replica stops answering mid-connection', async () => {
    proxy = await startTcpProxy(5432);
    const store = await viaProxy({ readOnlyThroughProxy: true });
    // The replica's pool holds a connection, then the link to it goes silent.
    expect(await store.getCompany('p', 'none')).toBeUndefined();
    proxy.blackhole();
    const started = Date.now();
    expect(await store.getCompany('p', 'none')).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(DEADLINE_MS + 1500);
  }, 15_000);

  it('closes within a few seconds while its connections are dead', async () => {
    proxy = await startTcpProxy(5432);
    const store = await viaProxy();
    expect(store.apiKeysGeneration()).toBeNull();
    for (let i = 0; i < 50 && store.apiKeysGeneration() === null; i++) await new Promise((r) => setTimeout(r, 50));
    await store.ping();
    proxy.blackhole();
    // A statement in flight on a dead connection, as an access log write met at shutdown.
    const inFlight = store.ping().catch((e: unknown) => e);
    const closing = opened.splice(0).map((s) => s.close());
    const started = Date.now();
    await Promise.all(closing);
    expect(Date.now() - started).toBeLessThan(6000);
    expect(await inFlight).toBeInstanceOf(StoreUnavailableError);
  }, 15_000);

  it('refuses a key revoked after its LISTEN connection was silently dropped, within seconds', async () => {
    proxy = await startTcpProxy(5432);
    const store = await viaProxy();
    const verifier = new ApiKeyVerifier(store);
    const { key, record } = await createApiKey(direct, { project: 'p' });
    // Listening, then verified once: the key is kept in memory under the current generation.
    for (let i = 0; i < 50 && store.apiKeysGeneration() === null; i++) await new Promise((r) => setTimeout(r, 50));
    expect(store.apiKeysGeneration()).not.toBeNull();
    expect((await verifier.verify(key)).ok).toBe(true);
    expect((await verifier.verify(key)).ok).toBe(true);

    proxy.sever();
    await direct.revokeApiKey(record.id, new Date().toISOString());
    const revokedAt = Date.now();
    // Accepted at most while the dead connection is still trusted; an unavailable store refuses too.
    let lastAccepted = revokedAt;
    let verdict = '';
    while (Date.now() - revokedAt < 10_000 && verdict !== 'revoked') {
      const asked = Date.now();
      verdict = await verifier.verify(key).then(
        (v) => (v.ok ? 'ok' : v.reason),
        () => 'unavailable',
      );
      if (verdict === 'ok') lastAccepted = asked;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(lastAccepted - revokedAt).toBeLessThanOrEqual(TRUST_MS + 250);
    expect(verdict).toBe('revoked');
  }, 15_000);
});
