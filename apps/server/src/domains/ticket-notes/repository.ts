import type { Sql } from "../../db/sql.js";
import { historyVisibilitySql, type HistoryContext } from "../tickets/visibility.js";

export interface NoteRow {
  id: number;
  note: string;
  user_id: number | null;
  user_name: string | null;
  ticket_id: number;
  contact_id: number;
  created_at: Date;
  updated_at: Date;
}

const SELECT = `SELECT n.id, n.note, n.user_id, u.name AS user_name, n.ticket_id, n.contact_id, n.created_at, n.updated_at
  FROM ticket_notes n LEFT JOIN users u ON u.company_id = n.company_id AND u.id = n.user_id`;

export function findNote(sql: Sql, companyId: number, id: number) {
  return sql.maybe<NoteRow>(`${SELECT} WHERE n.company_id = $1 AND n.id = $2`, [companyId, id]);
}

/**
 * A contact's notes (across its tickets) or one ticket's, newest first; only notes the history rule
 * lets the viewer read (historyVisibilitySql over the note's ticket and its conversation).
 */
export function listNotes(sql: Sql, companyId: number, f: { ticketId?: number; contactId?: number }, viewer: HistoryContext) {
  const params: unknown[] = [companyId];
  const where = ["n.company_id = $1"];
  where.push(`EXISTS (SELECT 1 FROM tickets t WHERE t.company_id = n.company_id AND t.id = n.ticket_id AND ${historyVisibilitySql(viewer, params, { contactId: "t.contact_id", whatsappId: "t.whatsapp_id" })})`);
  if (f.contactId) {
    params.push(f.contactId);
    where.push(`n.contact_id = $${params.length}`);
  } else if (f.ticketId) {
    params.push(f.ticketId);
    where.push(`n.ticket_id = $${params.length}`);
  }
  return sql.many<NoteRow>(`${SELECT} WHERE ${where.join(" AND ")} ORDER BY n.created_at DESC, n.id DESC LIMIT 500`, params);
}

export async function insertNote(sql: Sql, companyId: number, n: { note: string; ticketId: number; contactId: number; userId: number }) {
  const row = await sql.one<{ id: number }>(
    "INSERT INTO ticket_notes (company_id, ticket_id, contact_id, user_id, note) VALUES ($1, $2, $3, $4, $5) RETURNING id",
    [companyId, n.ticketId, n.contactId, n.userId, n.note],
  );
  return row.id;
}

export function deleteNote(sql: Sql, companyId: number, id: number) {
  return sql.exec("DELETE FROM ticket_notes WHERE company_id = $1 AND id = $2", [companyId, id]);
}
