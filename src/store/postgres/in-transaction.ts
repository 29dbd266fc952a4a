/** One transaction on one pooled connection: committed when `fn` resolves, rolled back when it throws. */
import type pg from 'pg';
import { isConnectionFailure } from './pg-errors.js';

export async function inTransaction<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    // A dead connection goes back destroyed; a failed statement only needs the rollback.
    if (isConnectionFailure(err)) broken = err as Error;
    else await client.query('ROLLBACK').catch((e: Error) => (broken = e));
    throw err;
  } finally {
    client.release(broken);
  }
}
