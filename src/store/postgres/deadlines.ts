/**
 * A connection dropped without a FIN or RST (a NAT or load balancer's idle time-out, a failover
 * behind a shared address, packets dropped) answers nothing, and the server's statement time-out
 * cannot reach the client through it. So every query also has a deadline of the client's own, a
 * little past the server's time-out (the server's cancel, 57014, comes first while it can answer),
 * sockets probe with TCP keepalive while idle, and closing destroys what does not say goodbye.
 */
import type pg from 'pg';

/** How much longer than the server's statement time-out a query waits for its answer. */
export const DEADLINE_MARGIN_MS = 1000;

/** Silence after which TCP keepalive starts probing an idle connection. */
export const KEEPALIVE_IDLE_MS = 10_000;

/** How long closing a pool or connection waits for a goodbye before destroying its sockets. */
export const CLOSE_BOUND_MS = 2000;

/** The client-side deadline of a statement the server times out after `statementTimeoutMs`. */
export function queryDeadline(statementTimeoutMs: number): number {
  return statementTimeoutMs + DEADLINE_MARGIN_MS;
}

/** A copy of `config` with a deadline of its own (pg reads `query_timeout` per query; its types do not name it). */
export function withDeadline<I>(config: pg.QueryConfig<I>, deadlineMs: number): pg.QueryConfig<I> {
  // A copy: a shared statement config must not keep one caller's deadline for every other.
  return { ...config, query_timeout: deadlineMs } as pg.QueryConfig<I>;
}

/** The socket under a pg client (not part of pg's typed interface). */
function socketOf(client: pg.ClientBase): { destroy(): void } | undefined {
  return (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream;
}

/** Drops `client`'s socket at once: a dead connection never answers a goodbye. */
export function destroyClient(client: pg.ClientBase): void {
  socketOf(client)?.destroy();
}

/** Lifts the client-side deadline of `client`'s queries, for a connection that runs statements without a server time-out. */
export function withoutDeadline(client: pg.ClientBase): void {
  const params = (client as unknown as { connectionParameters?: { query_timeout?: number | false } }).connectionParameters;
  if (params !== undefined) params.query_timeout = false;
}

/** Resolves after `ms`, or once `promise` settles, whichever is first; true when it settled. */
async function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const settled = await Promise.race([
    promise.then(
      () => true,
      () => true,
    ),
    new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms))),
  ]);
  clearTimeout(timer);
  return settled;
}

/** Ends `client`, destroying its socket when the server has not seen the goodbye within `boundMs`. */
export async function endClient(client: pg.ClientBase & { end(): Promise<void> }, boundMs = CLOSE_BOUND_MS): Promise<void> {
  const ended = client.end().catch(() => undefined);
  if (!(await within(ended, boundMs))) {
    destroyClient(client);
    await within(ended, boundMs);
  }
}

/**
 * Ends `pool`: connections in use are given `boundMs` to finish their statements, then destroyed
 * with their sockets (a statement on a dead connection would otherwise hold the close until its
 * deadline); idle ones the pool ends itself, and a socket that did not close by then is destroyed.
 */
export async function endPool(pool: pg.Pool, boundMs = CLOSE_BOUND_MS): Promise<void> {
  const clients = (): pg.ClientBase[] => (pool as unknown as { _clients?: pg.ClientBase[] })._clients ?? [];
  // Idle clients leave the pool's list before their goodbye is answered: kept here to destroy them after.
  const all = new Set(clients());
  const ended = pool.end();
  if (!(await within(ended, boundMs))) for (const c of clients()) destroyClient(c);
  await within(ended, boundMs);
  for (const c of all) destroyClient(c);
}
