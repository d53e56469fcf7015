import type { Sql } from "../../db/sql.js";
import { likeEscape } from "../contacts/repository.js";

export interface QuickMessageRow {
  id: number;
  company_id: number;
  user_id: number | null;
  shortcode: string;
  message: string;
  geral: boolean;
  media_path: string | null;
  media_name: string | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = "id, company_id, user_id, shortcode, message, geral, media_path, media_name, created_at, updated_at";
/** Company-wide messages and the user's own. */
const VISIBLE = "company_id = $1 AND (geral OR user_id = $2)";

export async function pageQuickMessages(sql: Sql, companyId: number, userId: number, search: string, limit: number, offset: number) {
  const params: unknown[] = [companyId, userId];
  let where = VISIBLE;
  if (search.trim()) {
    params.push(`%${likeEscape(search.trim().toLowerCase())}%`);
    where += " AND (lower(shortcode) LIKE $3 OR lower(message) LIKE $3)";
  }
  const rows = await sql.many<QuickMessageRow>(
    `SELECT ${COLUMNS} FROM quick_messages WHERE ${where} ORDER BY lower(shortcode), id LIMIT ${Number(limit)} OFFSET ${Number(offset)}`,
    params,
  );
  const count = await sql.one<{ n: number }>(`SELECT count(*)::int AS n FROM quick_messages WHERE ${where}`, params);
  return { rows, count: count.n };
}

export function listQuickMessages(sql: Sql, companyId: number, userId: number) {
  return sql.many<QuickMessageRow>(`SELECT ${COLUMNS} FROM quick_messages WHERE ${VISIBLE} ORDER BY lower(shortcode), id`, [companyId, userId]);
}

export function findVisible(sql: Sql, companyId: number, userId: number, id: number) {
  return sql.maybe<QuickMessageRow>(`SELECT ${COLUMNS} FROM quick_messages WHERE ${VISIBLE} AND id = $3`, [companyId, userId, id]);
}

export async function insertQuickMessage(sql: Sql, companyId: number, userId: number, q: { shortcode: string; message: string; geral: boolean }) {
  const row = await sql.one<{ id: number }>(
    "INSERT INTO quick_messages (company_id, user_id, shortcode, message, geral) VALUES ($1, $2, $3, $4, $5) RETURNING id",
    [companyId, userId, q.shortcode, q.message, q.geral],
  );
  return row.id;
}

export async function updateQuickMessage(
  sql: Sql,
  companyId: number,
  id: number,
  q: { shortcode?: string; message?: string; geral?: boolean; media_path?: string | null; media_name?: string | null },
) {
  const params: unknown[] = [companyId, id];
  const sets: string[] = [];
  for (const [k, v] of Object.entries(q)) {
    if (v === undefined) continue;
    params.push(v);
    sets.push(`${k} = $${params.length}`);
  }
  sets.push("updated_at = now()");
  await sql.exec(`UPDATE quick_messages SET ${sets.join(", ")} WHERE company_id = $1 AND id = $2`, params);
}

export function deleteQuickMessage(sql: Sql, companyId: number, id: number) {
  return sql.exec("DELETE FROM quick_messages WHERE company_id = $1 AND id = $2", [companyId, id]);
}
