import { z } from "zod";
import type { FastifyBaseLogger } from "fastify";
import type { Domain } from "../core/domain.js";
import type { Sql } from "./sql.js";

/**
 * The tables every inbound message, status and campaign send updates (their storage settings:
 * migration 0820).
 */
export const HOT_TABLES = [
  "tickets",
  "ticket_traking",
  "official_conversations",
  "webhook_events",
  "campaign_recipients",
  "sms_campaign_recipients",
  "email_campaign_recipients",
] as const;

export const UPKEEP_JOB = "database.upkeep";
const UPKEEP_CRON = "* * * * *";
/** Dead rows a hot table may hold before it is vacuumed here: the threshold and share migration 0820 gives autovacuum. */
const DEAD_ROWS = { threshold: 1000, share: 0.02 };
/** Dead rows any other table may hold: autovacuum's own defaults (50 + 20 %). */
const DEAD_ROWS_OTHERS = { threshold: 50, share: 0.2 };
/** Rows changed since a table's last ANALYZE before it is analysed here: autovacuum's own defaults (50 + 10 %). */
const CHANGED_ROWS = { threshold: 50, share: 0.1 };

/**
 * A PostgreSQL run with `autovacuum = off` (seen on shared and CI servers) never reclaims the dead
 * row versions the inbound path leaves in `tickets` (209k on a tester's server, every run slower than
 * the last), nor the reports' delta queues (1.2M dead rows after a bulk tagging, walked by every
 * read's fold: dashboard 207 ms p50 at 1M tickets), nor refreshes any table's statistics (a roll-up
 * filled since its last ANALYZE is planned as one row: a 52k-row histogram sorted on disk, 59 ms
 * instead of 12). Every minute, when autovacuum is off, it does autovacuum's work here, one table at
 * a time: the hot tables past their line (migration 0820) and every other table past autovacuum's
 * default line are vacuumed and analysed, and every table changed past autovacuum's analyse line is
 * analysed. With autovacuum on this does nothing. Returns the tables vacuumed or analysed.
 */
export async function vacuumHotTables(sql: Sql, log: FastifyBaseLogger, autovacuum?: boolean): Promise<string[]> {
  const on = autovacuum ?? (await sql.one<{ on: string }>("SELECT current_setting('autovacuum') AS on")).on === "on";
  if (on) return [];
  const due = await sql.many<{ relname: string; quoted: string }>(
    `SELECT relname, format('%I', relname) AS quoted FROM pg_stat_user_tables
      WHERE schemaname = current_schema()
        AND n_dead_tup > CASE WHEN relname = ANY($1::text[]) THEN $2::int + $3::float8 * n_live_tup ELSE $4::int + $5::float8 * n_live_tup END
      ORDER BY n_dead_tup DESC`,
    [[...HOT_TABLES], DEAD_ROWS.threshold, DEAD_ROWS.share, DEAD_ROWS_OTHERS.threshold, DEAD_ROWS_OTHERS.share],
  );
  for (const { quoted } of due) await sql.exec(`VACUUM (ANALYZE) ${quoted}`);
  const stale = await sql.many<{ relname: string; quoted: string }>(
    `SELECT relname, format('%I', relname) AS quoted FROM pg_stat_user_tables
      WHERE schemaname = current_schema() AND NOT (relname = ANY($1::text[])) AND n_mod_since_analyze > $2::int + $3::float8 * n_live_tup
      ORDER BY n_mod_since_analyze DESC`,
    [due.map((t) => t.relname), CHANGED_ROWS.threshold, CHANGED_ROWS.share],
  );
  for (const { quoted } of stale) await sql.exec(`ANALYZE ${quoted}`);
  const done = [...due, ...stale].map((t) => t.relname);
  if (done.length) log.warn({ vacuumed: due.map((t) => t.relname), analysed: stale.map((t) => t.relname) }, "PostgreSQL's autovacuum is off: the server's upkeep job vacuumed and analysed the tables past autovacuum's lines");
  return done;
}

export const databaseUpkeep: Domain = (_api, ctx) => {
  ctx.jobs.define({
    name: UPKEEP_JOB,
    schema: z.object({}).passthrough(),
    cron: UPKEEP_CRON,
    concurrency: 1,
    batchSize: 1,
    handler: async () => void (await vacuumHotTables(ctx.sql, ctx.log)),
  });
};
