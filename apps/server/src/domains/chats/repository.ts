import type { Sql } from "../../db/sql.js";
import { containsPattern } from "../users/repository.js";

export interface ChatRow {
  id: number;
  company_id: number;
  uuid: string;
  title: string;
  owner_id: number | null;
  last_message: string;
  created_at: Date;
  updated_at: Date;
  users: { userId: number; unreads: number; user: { id: number; name: string } }[];
}

export interface ChatMessageRow {
  id: string;
  chat_id: number;
  message: string;
  sender_id: number | null;
  sender_name: string | null;
  created_at: Date;
}

// a chat with its members (name and unread count), in one row
const CHAT_SELECT = `SELECT c.id, c.company_id, c.uuid::text AS uuid, c.title, c.owner_id, c.last_message, c.created_at, c.updated_at,
    COALESCE((SELECT json_agg(json_build_object('userId', cu.user_id, 'unreads', cu.unreads, 'user', json_build_object('id', u.id, 'name', u.name)) ORDER BY u.name, u.id)
                FROM chat_users cu JOIN users u ON u.company_id = cu.company_id AND u.id = cu.user_id
               WHERE cu.chat_id = c.id), '[]'::json) AS users
  FROM chats c`;

/** The user's chats, latest activity first. */
export async function pageChats(sql: Sql, companyId: number, userId: number, f: { search: string; limit: number; offset: number }) {
  const params: unknown[] = [companyId, userId];
  let where = "c.company_id = $1 AND EXISTS (SELECT 1 FROM chat_users m WHERE m.chat_id = c.id AND m.user_id = $2)";
  if (f.search) {
    params.push(containsPattern(f.search));
    where += ` AND c.title ILIKE $${params.length}`;
  }
  const rows = await sql.many<ChatRow>(`${CHAT_SELECT} WHERE ${where} ORDER BY c.updated_at DESC, c.id DESC LIMIT ${Number(f.limit)} OFFSET ${Number(f.offset)}`, params);
  const { n } = await sql.one<{ n: number }>(`SELECT count(*)::int AS n FROM chats c WHERE ${where}`, params);
  return { rows, count: n };
}

/** One chat of the company, by id or uuid, if the user is a member. */
export function findMemberChat(sql: Sql, companyId: number, userId: number, ref: number | string) {
  const by = typeof ref === "number" ? "c.id = $3" : "c.uuid = $3::uuid";
  return sql.maybe<ChatRow>(
    `${CHAT_SELECT} WHERE c.company_id = $1 AND ${by} AND EXISTS (SELECT 1 FROM chat_users m WHERE m.chat_id = c.id AND m.user_id = $2)`,
    [companyId, userId, ref],
  );
}

export function findChat(sql: Sql, companyId: number, id: number) {
  return sql.maybe<ChatRow>(`${CHAT_SELECT} WHERE c.company_id = $1 AND c.id = $2`, [companyId, id]);
}

/** Of the given ids, those that are users of the company. */
export async function companyUserIds(sql: Sql, companyId: number, ids: number[]): Promise<number[]> {
  const rows = await sql.many<{ id: number }>("SELECT id FROM users WHERE company_id = $1 AND id = ANY($2::int[])", [companyId, ids]);
  return rows.map((r) => r.id);
}

export async function insertChat(sql: Sql, companyId: number, ownerId: number, title: string, memberIds: number[]): Promise<number> {
  return sql.tx(async (tx) => {
    const { id } = await tx.one<{ id: number }>("INSERT INTO chats (company_id, owner_id, title) VALUES ($1, $2, $3) RETURNING id", [companyId, ownerId, title]);
    await tx.exec("INSERT INTO chat_users (company_id, chat_id, user_id) SELECT $1, $2, unnest($3::int[])", [companyId, id, memberIds]);
    return id;
  });
}

/** New title and members: members who stay keep their unread counts. Returns the removed members. */
export async function updateChat(sql: Sql, companyId: number, id: number, title: string, memberIds: number[]): Promise<number[]> {
  return sql.tx(async (tx) => {
    await tx.exec("UPDATE chats SET title = $3, updated_at = now() WHERE company_id = $1 AND id = $2", [companyId, id, title]);
    const removed = await tx.many<{ user_id: number }>("DELETE FROM chat_users WHERE chat_id = $1 AND NOT (user_id = ANY($2::int[])) RETURNING user_id", [id, memberIds]);
    await tx.exec("INSERT INTO chat_users (company_id, chat_id, user_id) SELECT $1, $2, unnest($3::int[]) ON CONFLICT DO NOTHING", [companyId, id, memberIds]);
    return removed.map((r) => r.user_id);
  });
}

export function deleteChat(sql: Sql, companyId: number, id: number) {
  return sql.exec("DELETE FROM chats WHERE company_id = $1 AND id = $2", [companyId, id]);
}

/** The newest messages first (the pane shows them oldest at the top), 20 a page. */
export async function pageMessages(sql: Sql, chatId: number, limit: number, offset: number) {
  const rows = await sql.many<ChatMessageRow>(
    `SELECT m.id::text AS id, m.chat_id, m.message, m.sender_id, u.name AS sender_name, m.created_at
       FROM chat_messages m LEFT JOIN users u ON u.company_id = m.company_id AND u.id = m.sender_id
      WHERE m.chat_id = $1 ORDER BY m.id DESC LIMIT ${Number(limit)} OFFSET ${Number(offset)}`,
    [chatId],
  );
  const { n } = await sql.one<{ n: number }>("SELECT count(*)::int AS n FROM chat_messages WHERE chat_id = $1", [chatId]);
  return { rows, count: n };
}

/** The message, the chat's last message and time, and one more unread for every other member. */
export function insertMessage(sql: Sql, companyId: number, chatId: number, senderId: number, message: string) {
  return sql.tx(async (tx) => {
    const row = await tx.one<ChatMessageRow>(
      `WITH m AS (INSERT INTO chat_messages (company_id, chat_id, sender_id, message) VALUES ($1, $2, $3, $4) RETURNING *)
       SELECT m.id::text AS id, m.chat_id, m.message, m.sender_id, u.name AS sender_name, m.created_at
         FROM m LEFT JOIN users u ON u.company_id = m.company_id AND u.id = m.sender_id`,
      [companyId, chatId, senderId, message],
    );
    await tx.exec("UPDATE chats SET last_message = left($3, 255), updated_at = now() WHERE company_id = $1 AND id = $2", [companyId, chatId, message]);
    await tx.exec("UPDATE chat_users SET unreads = unreads + 1 WHERE chat_id = $1 AND user_id <> $2", [chatId, senderId]);
    return row;
  });
}

export function markRead(sql: Sql, chatId: number, userId: number) {
  return sql.exec("UPDATE chat_users SET unreads = 0 WHERE chat_id = $1 AND user_id = $2 AND unreads <> 0", [chatId, userId]);
}
