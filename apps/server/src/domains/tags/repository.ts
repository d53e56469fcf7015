import type { Sql } from "../../db/sql.js";
import { likeEscape } from "../contacts/repository.js";

export interface TagRow {
  id: number;
  name: string;
  color: string;
  kanban: number;
  user_id: number | null;
  tickets_count: number;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = "tg.id, tg.name, tg.color, tg.kanban, tg.user_id, tg.created_at, tg.updated_at";

export async function pageTags(sql: Sql, companyId: number, search: string, limit: number, offset: number) {
  const params: unknown[] = [companyId];
  let where = "tg.company_id = $1";
  if (search.trim()) {
    params.push(`%${likeEscape(search.trim().toLowerCase())}%`);
    where += " AND lower(tg.name) LIKE $2";
  }
  const rows = await sql.many<TagRow>(
    `SELECT ${COLUMNS}, (SELECT count(*)::int FROM ticket_tags tt WHERE tt.company_id = tg.company_id AND tt.tag_id = tg.id) AS tickets_count
       FROM tags tg WHERE ${where} ORDER BY lower(tg.name), tg.id LIMIT ${Number(limit)} OFFSET ${Number(offset)}`,
    params,
  );
  const count = await sql.one<{ n: number }>(`SELECT count(*)::int AS n FROM tags tg WHERE ${where}`, params);
  return { rows, count: count.n };
}

export function listTags(sql: Sql, companyId: number, kanbanOnly = false) {
  return sql.many<TagRow>(
    `SELECT ${COLUMNS}, 0 AS tickets_count FROM tags tg WHERE tg.company_id = $1 ${kanbanOnly ? "AND tg.kanban = 1" : ""}
      ORDER BY lower(tg.name), tg.id`,
    [companyId],
  );
}

export function findTag(sql: Sql, companyId: number, id: number) {
  return sql.maybe<TagRow>(
    `SELECT ${COLUMNS}, (SELECT count(*)::int FROM ticket_tags tt WHERE tt.company_id = tg.company_id AND tt.tag_id = tg.id) AS tickets_count
       FROM tags tg WHERE tg.company_id = $1 AND tg.id = $2`,
    [companyId, id],
  );
}

export function insertTag(sql: Sql, companyId: number, t: { name: string; color: string; kanban: number; userId: number }) {
  return sql.maybe<{ id: number }>(
    `INSERT INTO tags (company_id, name, color, kanban, user_id) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (company_id, name) DO NOTHING RETURNING id`,
    [companyId, t.name, t.color, t.kanban, t.userId],
  );
}

export async function updateTag(sql: Sql, companyId: number, id: number, t: { name?: string; color?: string; kanban?: number; userId?: number | null }) {
  const map: Record<string, unknown> = { name: t.name, color: t.color, kanban: t.kanban, user_id: t.userId };
  const params: unknown[] = [companyId, id];
  const sets: string[] = [];
  for (const [k, v] of Object.entries(map)) {
    if (v === undefined) continue;
    params.push(v);
    sets.push(`${k} = $${params.length}`);
  }
  sets.push("updated_at = now()");
  await sql.exec(`UPDATE tags SET ${sets.join(", ")} WHERE company_id = $1 AND id = $2`, params);
}

export function deleteTag(sql: Sql, companyId: number, id: number) {
  return sql.exec("DELETE FROM tags WHERE company_id = $1 AND id = $2", [companyId, id]);
}

export function countCompanyTags(sql: Sql, companyId: number, ids: number[]) {
  return sql.one<{ n: number }>("SELECT count(*)::int AS n FROM tags WHERE company_id = $1 AND id = ANY($2::int[])", [companyId, ids]);
}

/** Replaces the ticket's tag set. */
export async function setTicketTags(sql: Sql, companyId: number, ticketId: number, tagIds: number[]) {
  await sql.exec("DELETE FROM ticket_tags WHERE company_id = $1 AND ticket_id = $2 AND NOT (tag_id = ANY($3::int[]))", [companyId, ticketId, tagIds]);
  if (tagIds.length) {
    await sql.exec(
      `INSERT INTO ticket_tags (company_id, ticket_id, tag_id) SELECT $1, $2, unnest($3::int[]) ON CONFLICT DO NOTHING`,
      [companyId, ticketId, tagIds],
    );
  }
}
