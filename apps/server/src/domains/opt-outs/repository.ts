import { optOutAddressKey, type OptOutChannel, type OptOutSource } from "@atende/shared";
import type { Sql } from "../../db/sql.js";
import { likeEscape } from "../contacts/repository.js";

/**
 * The company's opt-out list (migration 0700): addresses no campaign of that channel writes to again.
 * Adding is idempotent (the first reason is kept). Used by the SMS and e-mail campaigns' analyses and
 * dispatch, by SMS replies (SAIR/PARAR/STOP) and by the e-mail one-click unsubscribe.
 */
export async function addOptOut(
  sql: Sql,
  companyId: number,
  channel: OptOutChannel,
  address: string,
  source: OptOutSource,
  reference: string | null = null,
): Promise<boolean> {
  const key = optOutAddressKey(channel, address);
  if (!key) return false;
  const rows = await sql.many<{ address: string }>(
    `INSERT INTO opt_outs (company_id, channel, address, source, reference) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (company_id, channel, address) DO NOTHING RETURNING address`,
    [companyId, channel, key, source, reference],
  );
  return rows.length > 0;
}

export async function removeOptOut(sql: Sql, companyId: number, channel: OptOutChannel, address: string): Promise<boolean> {
  const rows = await sql.many<{ address: string }>("DELETE FROM opt_outs WHERE company_id = $1 AND channel = $2 AND address = $3 RETURNING address", [
    companyId,
    channel,
    optOutAddressKey(channel, address),
  ]);
  return rows.length > 0;
}

/** Which of these addresses (any form) are on the list, as their stored keys; one indexed query per call. */
export async function optedOutAmong(sql: Sql, companyId: number, channel: OptOutChannel, addresses: string[]): Promise<Set<string>> {
  if (addresses.length === 0) return new Set();
  const keys = [...new Set(addresses.map((a) => optOutAddressKey(channel, a)).filter(Boolean))];
  const rows = await sql.many<{ address: string }>("SELECT address FROM opt_outs WHERE company_id = $1 AND channel = $2 AND address = ANY($3::text[])", [
    companyId,
    channel,
    keys,
  ]);
  return new Set(rows.map((r) => r.address));
}

export async function isOptedOut(sql: Sql, companyId: number, channel: OptOutChannel, address: string): Promise<boolean> {
  return (await optedOutAmong(sql, companyId, channel, [address])).size > 0;
}

export interface OptOutRow {
  channel: OptOutChannel;
  address: string;
  source: OptOutSource;
  reference: string | null;
  /** The name of what `reference` names (the user, the campaign's title), when it still exists. */
  reference_name: string | null;
  created_at: Date;
}

/**
 * The columns of an entry, with the name of what put it there: `user:<id>` the user's name,
 * `sms-campaign:<id>` / `email-campaign:<id>` the campaign's title, each of the entry's company only.
 */
const REFERENCED_ID = `(CASE WHEN split_part(o.reference, ':', 2) ~ '^[0-9]{1,9}$' THEN split_part(o.reference, ':', 2)::int END)`;
const ENTRY_COLUMNS = `o.channel, o.address, o.source, o.reference, o.created_at,
  CASE split_part(o.reference, ':', 1)
    WHEN 'user' THEN (SELECT u.name FROM users u WHERE u.company_id = o.company_id AND u.id = ${REFERENCED_ID})
    WHEN 'sms-campaign' THEN (SELECT c.title FROM sms_campaigns c WHERE c.company_id = o.company_id AND c.id = ${REFERENCED_ID})
    WHEN 'email-campaign' THEN (SELECT c.title FROM email_campaigns c WHERE c.company_id = o.company_id AND c.id = ${REFERENCED_ID})
  END AS reference_name`;

/**
 * A page of the list, newest first: every channel or one, optionally filtered by part of the address
 * (case-insensitive) or, for numbers, part of its digits (so "(11) 99999" finds 5511999990001).
 */
export async function pageOptOuts(
  sql: Sql,
  companyId: number,
  f: { channel?: OptOutChannel; search: string },
  limit: number,
  offset: number,
): Promise<{ rows: OptOutRow[]; count: number }> {
  const term = f.search.trim().toLowerCase();
  const digits = term.replace(/\D/g, "");
  const where = `company_id = $1 AND ($2::text IS NULL OR channel = $2)
      AND ($3 = '' OR address LIKE '%' || $3 || '%' OR (channel = 'sms' AND $4 <> '' AND address LIKE '%' || $4 || '%'))`;
  const params = [companyId, f.channel ?? null, likeEscape(term), likeEscape(digits)];
  const [rows, total] = await Promise.all([
    sql.many<OptOutRow>(`SELECT ${ENTRY_COLUMNS} FROM opt_outs o WHERE ${where} ORDER BY o.created_at DESC, o.channel, o.address LIMIT $5 OFFSET $6`, [
      ...params,
      limit,
      offset,
    ]),
    sql.one<{ n: number }>(`SELECT count(*)::int AS n FROM opt_outs WHERE ${where}`, params),
  ]);
  return { rows, count: total.n };
}

/** One entry by its stored key (the company's own only). */
export function findOptOut(sql: Sql, companyId: number, channel: OptOutChannel, key: string) {
  return sql.maybe<OptOutRow>(`SELECT ${ENTRY_COLUMNS} FROM opt_outs o WHERE o.company_id = $1 AND o.channel = $2 AND o.address = $3`, [
    companyId,
    channel,
    key,
  ]);
}
