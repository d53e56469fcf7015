import type { Sql } from "../../db/sql.js";

/**
 * Meta's messaging limit tiers: unique users a portfolio may open business-initiated conversations
 * with in any moving 24 hours (WhatsApp Cloud API "Messaging limits"). The portfolio's limit is the
 * highest tier among its numbers, as Meta applies limits per business portfolio.
 */
export const TIER_LIMITS: Record<string, number> = {
  TIER_50: 50,
  TIER_250: 250,
  TIER_1K: 1000,
  TIER_2K: 2000,
  TIER_10K: 10_000,
  TIER_100K: 100_000,
  TIER_UNLIMITED: Number.POSITIVE_INFINITY,
};
/** A number whose tier Meta has not reported yet starts at the entry tier. */
const UNKNOWN_TIER_LIMIT = 250;

export function tierLimit(tiers: string[]): number {
  if (!tiers.length) return UNKNOWN_TIER_LIMIT;
  return Math.max(...tiers.map((t) => TIER_LIMITS[t.toUpperCase()] ?? UNKNOWN_TIER_LIMIT));
}

export interface PortfolioOutput {
  /** The tier's count (Infinity when unlimited). */
  limit: number;
  /** Unique phones that opened a business-initiated conversation in the last 24 h. */
  used: number;
  /** limit − used, never below 0 (Infinity when unlimited). */
  remaining: number;
}

/**
 * `remainingOutput` of a business (portfolio): the tier limit minus the unique phones of its
 * business-initiated sends in the last 24 hours (`used` is 0 when unlimited: not counted). A sandbox
 * business has no limit. Shared by the dispatcher and `/api/phones`.
 */
export async function portfolioOutput(sql: Sql, companyId: number, businessId: number): Promise<PortfolioOutput> {
  const row = await sql.one<{ tiers: string[]; sandbox: boolean }>(
    `SELECT COALESCE((SELECT array_agg(o.messaging_limit) FROM official_numbers o
                       WHERE o.company_id = b.company_id AND o.business_id = b.id AND o.messaging_limit <> ''), '{}') AS tiers,
            b.sandbox
       FROM businesses b WHERE b.company_id = $1 AND b.id = $2`,
    [companyId, businessId],
  );
  const limit = row.sandbox ? Number.POSITIVE_INFINITY : tierLimit(row.tiers);
  // an unlimited portfolio needs no count of its window (the dispatcher asks before every batch)
  if (!Number.isFinite(limit)) return { limit, used: 0, remaining: limit };
  const { used } = await sql.one<{ used: number }>(
    "SELECT count(DISTINCT phone)::int AS used FROM business_initiated_sends WHERE business_id = $1 AND sent_at > now() - interval '24 hours'",
    [businessId],
  );
  return { limit, used, remaining: Math.max(0, limit - used) };
}

/** When the oldest business-initiated send of the window leaves it (room frees up then), or null. */
export async function windowFreesAt(sql: Sql, businessId: number): Promise<Date | null> {
  const row = await sql.maybe<{ at: Date | null }>(
    "SELECT min(sent_at) + interval '24 hours' AS at FROM business_initiated_sends WHERE business_id = $1 AND sent_at > now() - interval '24 hours'",
    [businessId],
  );
  return row?.at ?? null;
}
