import type { Profile } from "@atende/shared";
import type { Sql } from "../../db/sql.js";

export interface UserRow {
  id: number;
  name: string;
  email: string;
  profile: Profile;
  super: boolean;
  company_id: number;
  all_ticket: "enable" | "disable";
  whatsapp_id: number | null;
  /** presence's inputs (the socket flag, the last connect or userStatus); the rule is isOnline in packages/shared */
  online: boolean;
  last_seen_at: Date | null;
  created_at: Date;
  queues: { id: number; name: string; color: string }[];
}

const USER_COLUMNS = `u.id, u.name, u.email::text AS email, u.profile, u.super, u.company_id, u.all_ticket, u.whatsapp_id,
  u.online, u.last_seen_at, u.created_at,
  COALESCE((SELECT json_agg(json_build_object('id', q.id, 'name', q.name, 'color', q.color) ORDER BY q.name, q.id)
              FROM user_queues uq JOIN queues q ON q.company_id = uq.company_id AND q.id = uq.queue_id
             WHERE uq.company_id = u.company_id AND uq.user_id = u.id), '[]') AS queues`;

/** LIKE pattern for a literal substring. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export interface UserListFilter {
  search: string;
  queueIds: number[];
  limit: number;
  offset: number;
}

/** One company's users by name (index users_company_name), optionally searched and filtered by queue. */
export async function listUsers(sql: Sql, companyId: number, f: UserListFilter): Promise<{ rows: UserRow[]; count: number }> {
  const where = ["u.company_id = $1"];
  const params: unknown[] = [companyId];
  if (f.search) {
    params.push(containsPattern(f.search));
    where.push(`(u.name ILIKE $${params.length} OR u.email ILIKE $${params.length})`);
  }
  if (f.queueIds.length) {
    params.push(f.queueIds);
    where.push(`EXISTS (SELECT 1 FROM user_queues uq WHERE uq.company_id = u.company_id AND uq.user_id = u.id AND uq.queue_id = ANY($${params.length}::int[]))`);
  }
  const clause = where.join(" AND ");
  const { count } = await sql.one<{ count: number }>(`SELECT count(*)::int AS count FROM users u WHERE ${clause}`, params);
  const rows = await sql.many<UserRow>(
    `SELECT ${USER_COLUMNS} FROM users u WHERE ${clause} ORDER BY u.name, u.id LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, f.limit, f.offset],
  );
  return { rows, count };
}

export function listUserNames(sql: Sql, companyId: number) {
  return sql.many<{ id: number; name: string }>("SELECT id, name FROM users WHERE company_id = $1 ORDER BY name, id", [companyId]);
}

export function findUser(sql: Sql, companyId: number, id: number) {
  return sql.maybe<UserRow>(`SELECT ${USER_COLUMNS} FROM users u WHERE u.company_id = $1 AND u.id = $2`, [companyId, id]);
}

/** Platform-wide: the company of a user (super administrators act across companies). */
export async function companyOfUser(sql: Sql, id: number): Promise<number | null> {
  const row = await sql.maybe<{ company_id: number }>("SELECT company_id FROM users WHERE id = $1", [id]);
  return row?.company_id ?? null;
}

export async function emailTaken(sql: Sql, email: string, exceptUserId?: number): Promise<boolean> {
  const row = await sql.maybe("SELECT 1 FROM users WHERE email = $1 AND id <> $2", [email, exceptUserId ?? 0]);
  return row !== null;
}

export async function countCompanyQueues(sql: Sql, companyId: number, ids: number[]): Promise<number> {
  if (!ids.length) return 0;
  const row = await sql.one<{ n: number }>("SELECT count(*)::int AS n FROM queues WHERE company_id = $1 AND id = ANY($2::int[])", [companyId, ids]);
  return row.n;
}

export async function whatsappExists(sql: Sql, companyId: number, id: number): Promise<boolean> {
  return (await sql.maybe("SELECT 1 FROM whatsapps WHERE company_id = $1 AND id = $2", [companyId, id])) !== null;
}

export interface NewUser {
  name: string;
  email: string;
  passwordHash: string;
  profile: Profile;
  allTicket: "enable" | "disable";
  whatsappId: number | null;
}

export async function insertUser(sql: Sql, companyId: number, u: NewUser): Promise<number> {
  const row = await sql.one<{ id: number }>(
    `INSERT INTO users (company_id, name, email, password_hash, profile, all_ticket, whatsapp_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
    [companyId, u.name, u.email, u.passwordHash, u.profile, u.allTicket, u.whatsappId],
  );
  return row.id;
}

export interface UserPatch {
  name?: string;
  email?: string;
  passwordHash?: string;
  profile?: Profile;
  allTicket?: "enable" | "disable";
  whatsappId?: number | null;
}

const PATCH_COLUMNS: Record<keyof UserPatch, string> = {
  name: "name",
  email: "email",
  passwordHash: "password_hash",
  profile: "profile",
  allTicket: "all_ticket",
  whatsappId: "whatsapp_id",
};

export async function updateUser(sql: Sql, companyId: number, id: number, patch: UserPatch): Promise<void> {
  const sets: string[] = [];
  const params: unknown[] = [companyId, id];
  for (const [key, column] of Object.entries(PATCH_COLUMNS) as [keyof UserPatch, string][]) {
    if (patch[key] === undefined) continue;
    params.push(patch[key]);
    sets.push(`${column} = $${params.length}`);
  }
  if (!sets.length) return;
  await sql.exec(`UPDATE users SET ${sets.join(", ")}, updated_at = now() WHERE company_id = $1 AND id = $2`, params);
}

export async function setUserQueues(sql: Sql, companyId: number, userId: number, queueIds: number[]): Promise<void> {
  await sql.exec("DELETE FROM user_queues WHERE company_id = $1 AND user_id = $2", [companyId, userId]);
  if (!queueIds.length) return;
  await sql.exec(
    `INSERT INTO user_queues (company_id, user_id, queue_id)
     SELECT $1, $2, q FROM unnest($3::int[]) AS q ON CONFLICT DO NOTHING`,
    [companyId, userId, queueIds],
  );
}

/** Ends every session of the user: access tokens stop verifying and refresh tokens are revoked. */
/** The stored password hash, to check a user's current password before they change it. */
export async function passwordHashOf(sql: Sql, companyId: number, id: number): Promise<string | null> {
  const row = await sql.maybe<{ password_hash: string }>("SELECT password_hash FROM users WHERE company_id = $1 AND id = $2", [companyId, id]);
  return row?.password_hash ?? null;
}

export function deleteUser(sql: Sql, companyId: number, id: number) {
  return sql.exec("DELETE FROM users WHERE company_id = $1 AND id = $2", [companyId, id]);
}
