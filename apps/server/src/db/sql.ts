import { createHash } from "node:crypto";
import pg from "pg";
import { afterCommit, HeldWork, holdWithinTransaction } from "../core/after-work.js";
import { timestamptzParser } from "./timestamp-parser.js";

// Return BIGINT counts as numbers and DATE as plain YYYY-MM-DD strings.
pg.types.setTypeParser(20, (v) => Number(v));
pg.types.setTypeParser(1700, (v) => Number(v));
pg.types.setTypeParser(1082, (v) => v);
// timestamptz without regular expressions (timestamp-parser.ts), the pg parser kept for other forms
pg.types.setTypeParser(1184, timestamptzParser(pg.types.getTypeParser(1184)));

type Queryable = pg.Pool | pg.PoolClient;

export interface QueryOptions {
  /**
   * A named prepared statement planned once for any values: for hot queries of a fixed shape whose
   * best plan does not depend on the values (a page walked through an index, rows by id) and whose
   * planning costs more than running them, like the ticket list and details. Outside a transaction
   * it runs on the planned pool (`createPool(..., { genericPlans: true })`), whose connections keep
   * one generic plan per statement: left to itself PostgreSQL may plan such a statement again on
   * every execution (its custom plans look cheaper to it than the generic one), which for the
   * ticket list costs twice the query.
   */
  prepare?: boolean;
}

/** One name per distinct text, so two texts never collide in a connection's statement cache. */
const names = new Map<string, string>();
/** A prepared statement's name, from its text (remembered: the same few texts run on every request). */
function statementName(text: string): string {
  let name = names.get(text);
  if (!name) {
    if (names.size >= 2000) names.clear();
    name = `s_${createHash("sha1").update(text).digest("base64url").slice(0, 20)}`;
    names.set(text, name);
  }
  return name;
}

/** Thin, parameterised SQL access; every repository goes through it. */
export class Sql {
  /** `planned`: the pool for prepared statements outside transactions (see QueryOptions.prepare). */
  constructor(
    private readonly conn: Queryable,
    private readonly planned?: pg.Pool,
  ) {}

  async many<T = Record<string, unknown>>(text: string, params: unknown[] = [], opts: QueryOptions = {}): Promise<T[]> {
    const res = opts.prepare
      ? await (this.planned ?? this.conn).query({ name: statementName(text), text, values: params })
      : await this.conn.query(text, params);
    return res.rows as T[];
  }

  async maybe<T = Record<string, unknown>>(text: string, params: unknown[] = [], opts: QueryOptions = {}): Promise<T | null> {
    const rows = await this.many<T>(text, params, opts);
    return rows[0] ?? null;
  }

  async one<T = Record<string, unknown>>(text: string, params: unknown[] = [], opts: QueryOptions = {}): Promise<T> {
    const row = await this.maybe<T>(text, params, opts);
    if (!row) throw new Error("Expected one row, got none");
    return row;
  }

  async exec(text: string, params: unknown[] = []): Promise<number> {
    const res = await this.conn.query(text, params);
    return res.rowCount ?? 0;
  }

  /** Runs fn in a transaction (nested calls reuse the open one); work it holds for after the commit runs after it. */
  async tx<T>(fn: (sql: Sql) => Promise<T>): Promise<T> {
    if (!(this.conn instanceof pg.Pool)) return fn(this);
    const client = await this.conn.connect();
    let broken: Error | undefined;
    // real-time emits and other after-commit work of the body wait for the COMMIT (core/after-work.ts)
    const held = new HeldWork();
    try {
      await client.query("BEGIN");
      const result = await holdWithinTransaction(held, () => fn(new Sql(client)));
      await client.query("COMMIT");
      held.release(afterCommit);
      return result;
    } catch (err) {
      held.drop();
      // a failed ROLLBACK means a broken connection: it is destroyed instead of pooled; the caller gets `err`
      broken = await client.query("ROLLBACK").then(
        () => undefined,
        (rollbackErr: unknown) => (rollbackErr instanceof Error ? rollbackErr : new Error(String(rollbackErr))),
      );
      throw err;
    } finally {
      client.release(broken);
    }
  }
}

/**
 * An idle client's error (the server restarted, or ended the connection) is logged; pg drops that
 * client and the next query takes a new one, so nothing else is needed. Without a logger (scripts,
 * tests) it goes to stderr.
 *
 * Every connection plans for solid-state storage (`random_page_cost` 1.1, as PostgreSQL's manual
 * suggests for SSDs, against the default 4.0 of spinning disks): with 4.0 a report's drill-down page
 * under a selective filter (an agent's 1-star ratings over 90 days) was planned as a parallel scan of
 * the whole cycles table (75-110 ms at 1M cycles) instead of walking the event's index (3-20 ms).
 */
export function createPool(
  connectionString: string,
  max = 10,
  log?: { warn(obj: object, msg: string): void },
  opts: { genericPlans?: boolean } = {},
): pg.Pool {
  const options = ["-c random_page_cost=1.1", ...(opts.genericPlans ? ["-c plan_cache_mode=force_generic_plan"] : [])].join(" ");
  const pool = new pg.Pool({ connectionString, max, options });
  pool.on("error", (err) => {
    // the message and code only: pg's error carries its whole client (parsed statements and all)
    const lost = { message: err.message, code: (err as { code?: string }).code };
    if (log) log.warn({ err: lost }, "idle database connection lost; the pool opens a new one");
    else console.warn("idle database connection lost", lost);
  });
  return pool;
}
