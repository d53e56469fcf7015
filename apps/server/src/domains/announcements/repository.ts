import type { Sql } from "../../db/sql.js";
import { containsPattern } from "../users/repository.js";

export interface AnnouncementRow {
  id: number;
  company_id: number;
  title: string;
  text: string;
  priority: number;
  status: boolean;
  media_path: string | null;
  media_name: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface AnnouncementFields {
  title: string;
  text: string;
  priority: number;
  status: boolean;
}

// Announcements are platform-wide: every signed-in user reads the active ones (company_id is only the
// author's company), super administrators read and write all of them.
const COLUMNS = "id, company_id, title, text, priority, status, media_path, media_name, created_at, updated_at";

export async function pageAnnouncements(sql: Sql, f: { search: string; activeOnly: boolean; limit: number; offset: number }) {
  const params: unknown[] = [];
  const where: string[] = [];
  if (f.activeOnly) where.push("status");
  if (f.search) {
    params.push(containsPattern(f.search));
    where.push(`(title ILIKE $${params.length} OR text ILIKE $${params.length})`);
  }
  const clause = where.length ? `WHERE ${where.join(" AND ")}` : "";
  const rows = await sql.many<AnnouncementRow>(
    // the most urgent first, then the newest (the app bar's order; the page shows the same)
    `SELECT ${COLUMNS} FROM announcements ${clause} ORDER BY priority, created_at DESC, id DESC LIMIT ${Number(f.limit)} OFFSET ${Number(f.offset)}`,
    params,
  );
  const { n } = await sql.one<{ n: number }>(`SELECT count(*)::int AS n FROM announcements ${clause}`, params);
  return { rows, count: n };
}

/** Active announcements created or changed since the user last opened the app bar's list. */
export async function countUnseen(sql: Sql, companyId: number, userId: number): Promise<number> {
  const { n } = await sql.one<{ n: number }>(
    `SELECT count(*)::int AS n FROM announcements a
      WHERE a.status AND a.updated_at > COALESCE((SELECT announcements_seen_at FROM users WHERE company_id = $1 AND id = $2), '-infinity')`,
    [companyId, userId],
  );
  return n;
}

export function markSeen(sql: Sql, companyId: number, userId: number) {
  return sql.exec("UPDATE users SET announcements_seen_at = now() WHERE company_id = $1 AND id = $2", [companyId, userId]);
}

export function findAnnouncement(sql: Sql, id: number) {
  return sql.maybe<AnnouncementRow>(`SELECT ${COLUMNS} FROM announcements WHERE id = $1`, [id]);
}

export function insertAnnouncement(sql: Sql, companyId: number, a: AnnouncementFields) {
  return sql.one<AnnouncementRow>(
    `INSERT INTO announcements (company_id, title, text, priority, status) VALUES ($1, $2, $3, $4, $5) RETURNING ${COLUMNS}`,
    [companyId, a.title, a.text, a.priority, a.status],
  );
}

export function updateAnnouncement(sql: Sql, id: number, a: AnnouncementFields) {
  return sql.maybe<AnnouncementRow>(
    `UPDATE announcements SET title = $2, text = $3, priority = $4, status = $5, updated_at = now() WHERE id = $1 RETURNING ${COLUMNS}`,
    [id, a.title, a.text, a.priority, a.status],
  );
}

export function setMedia(sql: Sql, id: number, media: { path: string; name: string } | null) {
  return sql.maybe<AnnouncementRow>(
    `UPDATE announcements SET media_path = $2, media_name = $3, updated_at = now() WHERE id = $1 RETURNING ${COLUMNS}`,
    [id, media?.path ?? null, media?.name ?? null],
  );
}

export function deleteAnnouncement(sql: Sql, id: number) {
  return sql.maybe<AnnouncementRow>(`DELETE FROM announcements WHERE id = $1 RETURNING ${COLUMNS}`, [id]);
}
