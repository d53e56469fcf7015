import type { HelpInput } from "@atende/shared";
import type { Sql } from "../../db/sql.js";
import { containsPattern } from "../users/repository.js";

export interface HelpRow {
  id: number;
  title: string;
  description: string;
  video: string;
}

// Help videos are platform-wide (no company_id): every user reads them, super administrators write them.
const COLUMNS = "id, title, description, video";

export async function listHelps(sql: Sql, f: { search: string; limit: number; offset: number }) {
  const params: unknown[] = [];
  let where = "";
  if (f.search) {
    params.push(containsPattern(f.search));
    where = "WHERE title ILIKE $1 OR description ILIKE $1";
  }
  const { count } = await sql.one<{ count: number }>(`SELECT count(*)::int AS count FROM helps ${where}`, params);
  const rows = await sql.many<HelpRow>(
    `SELECT ${COLUMNS} FROM helps ${where} ORDER BY title, id LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, f.limit, f.offset],
  );
  return { rows, count };
}

export function allHelps(sql: Sql) {
  return sql.many<HelpRow>(`SELECT ${COLUMNS} FROM helps ORDER BY title, id`);
}

export function findHelp(sql: Sql, id: number) {
  return sql.maybe<HelpRow>(`SELECT ${COLUMNS} FROM helps WHERE id = $1`, [id]);
}

export function insertHelp(sql: Sql, h: HelpInput) {
  return sql.one<HelpRow>(`INSERT INTO helps (title, description, video) VALUES ($1, $2, $3) RETURNING ${COLUMNS}`, [
    h.title,
    h.description,
    h.video,
  ]);
}

export function updateHelp(sql: Sql, id: number, h: HelpInput) {
  return sql.maybe<HelpRow>(
    `UPDATE helps SET title = $2, description = $3, video = $4, updated_at = now() WHERE id = $1 RETURNING ${COLUMNS}`,
    [id, h.title, h.description, h.video],
  );
}

export function deleteHelp(sql: Sql, id: number) {
  return sql.exec("DELETE FROM helps WHERE id = $1", [id]);
}
