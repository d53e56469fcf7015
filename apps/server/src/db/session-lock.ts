import type pg from "pg";

/** The keys of the session-wide advisory locks processes take at start (one number each). */
export const START_LOCKS = { migrations: 727_001, jobQueues: 727_003 } as const;

/**
 * Runs `fn` while this process holds a session advisory lock on one connection of `pool`: processes
 * starting together take turns. The lock is released after `fn`, or with the connection if the unlock
 * fails (a broken connection is destroyed, not pooled, which drops the lock).
 */
export async function withSessionLock<T>(pool: pg.Pool, key: number, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [key]);
  } catch (err) {
    client.release(err instanceof Error ? err : new Error(String(err)));
    throw err;
  }
  try {
    return await fn(client);
  } finally {
    const unlockError = await client.query("SELECT pg_advisory_unlock($1)", [key]).then(
      () => undefined,
      (err: unknown) => (err instanceof Error ? err : new Error(String(err))),
    );
    client.release(unlockError);
  }
}
