import type { Sql } from "../src/db/sql.js";

/**
 * Polls `fn` (sync or async) every `everyMs` until it returns something truthy (returned), or fails
 * naming `what` after `timeoutMs`. The one poll of the server's tests: a file's own `until` is a
 * one-line use of it with its timeout and pace.
 */
export async function waitFor<T>(
  fn: () => T | null | undefined | false | Promise<T | null | undefined | false>,
  timeoutMs = 15_000,
  what = "condition",
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/**
 * Waits until every pg-boss job named `name` whose payload contains `match` and whose start time has
 * come has ended (completed, failed or cancelled), and at least `atLeast` have. A test that must show
 * something did NOT happen (a moved schedule's old time, a second send) waits on this instead of
 * sleeping: once the jobs that could do it have ended, nothing more can come from them.
 */
export async function dueJobsSettled(sql: Sql, name: string, match: Record<string, unknown>, atLeast = 1, timeoutMs = 15_000): Promise<void> {
  await waitFor(
    async () => {
      const r = await sql.one<{ pending: number; ended: number }>(
        `SELECT count(*) FILTER (WHERE state IN ('created', 'retry', 'active') AND start_after <= now())::int AS pending,
                count(*) FILTER (WHERE state IN ('completed', 'failed', 'cancelled'))::int AS ended
           FROM pgboss.job WHERE name = $1 AND data @> $2::jsonb`,
        [name, JSON.stringify(match)],
      );
      return r.pending === 0 && r.ended >= atLeast;
    },
    timeoutMs,
    `the due ${name} jobs of ${JSON.stringify(match)} to end`,
  );
}

/** How many pg-boss jobs named `name` whose payload contains `match` exist, in any state. */
export async function countJobs(sql: Sql, name: string, match: Record<string, unknown>): Promise<number> {
  const r = await sql.one<{ n: number }>("SELECT count(*)::int AS n FROM pgboss.job WHERE name = $1 AND data @> $2::jsonb", [name, JSON.stringify(match)]);
  return r.n;
}
