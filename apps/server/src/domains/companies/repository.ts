import { DEFAULT_TIME_ZONE, type ScheduleEntry } from "@atende/shared";
import type { Sql } from "../../db/sql.js";
import type { PlanRow } from "../plans/repository.js";

export interface CompanyRow {
  id: number;
  name: string;
  email: string;
  phone: string;
  plan_id: number;
  status: boolean;
  campaigns_enabled: boolean;
  due_date: string | null;
  recurrence: string;
  bi_url: string;
  billing_name: string;
  document: string;
  schedules: ScheduleEntry[];
  time_zone: string;
  is_platform: boolean;
  created_at: Date;
  plan: PlanRow | null;
}

const COMPANY_COLUMNS = `c.id, c.name, c.email::text AS email, c.phone, c.plan_id, c.status, c.campaigns_enabled, c.due_date,
  c.recurrence, c.bi_url, c.billing_name, c.document, c.schedules, c.time_zone, c.is_platform, c.created_at, to_json(p) AS plan`;
const FROM = "companies c LEFT JOIN plans p ON p.id = c.plan_id";

// Companies are the tenants themselves: the service decides who may see which (super: all; others: own).
export function listCompanies(sql: Sql) {
  return sql.many<CompanyRow>(`SELECT ${COMPANY_COLUMNS} FROM ${FROM} ORDER BY c.name, c.id`);
}

export function findCompany(sql: Sql, id: number) {
  return sql.maybe<CompanyRow>(`SELECT ${COMPANY_COLUMNS} FROM ${FROM} WHERE c.id = $1`, [id]);
}

export async function planExists(sql: Sql, planId: number): Promise<boolean> {
  return (await sql.maybe("SELECT 1 FROM plans WHERE id = $1", [planId])) !== null;
}

export interface CompanyFields {
  name: string;
  email: string;
  phone: string;
  planId: number;
  status: boolean;
  campaignsEnabled: boolean;
  dueDate: string | null;
  recurrence: string;
  biUrl: string;
  billingName: string;
  document: string;
}

const COLUMN_OF: Record<keyof CompanyFields, string> = {
  name: "name",
  email: "email",
  phone: "phone",
  planId: "plan_id",
  status: "status",
  campaignsEnabled: "campaigns_enabled",
  dueDate: "due_date",
  recurrence: "recurrence",
  biUrl: "bi_url",
  billingName: "billing_name",
  document: "document",
};

export async function insertCompany(sql: Sql, f: CompanyFields): Promise<number> {
  const keys = Object.keys(COLUMN_OF) as (keyof CompanyFields)[];
  const row = await sql.one<{ id: number }>(
    `INSERT INTO companies (${keys.map((k) => COLUMN_OF[k]).join(", ")}) VALUES (${keys.map((_, i) => `$${i + 1}`).join(", ")}) RETURNING id`,
    keys.map((k) => f[k]),
  );
  return row.id;
}

export async function updateCompany(sql: Sql, id: number, patch: Partial<CompanyFields>): Promise<void> {
  const sets: string[] = [];
  const params: unknown[] = [id];
  for (const [key, column] of Object.entries(COLUMN_OF) as [keyof CompanyFields, string][]) {
    if (patch[key] === undefined) continue;
    params.push(patch[key]);
    sets.push(`${column} = $${params.length}`);
  }
  if (sets.length) await sql.exec(`UPDATE companies SET ${sets.join(", ")}, updated_at = now() WHERE id = $1`, params);
}

export function setTimeZone(sql: Sql, id: number, timeZone: string) {
  return sql.exec("UPDATE companies SET time_zone = $2, updated_at = now() WHERE id = $1", [id, timeZone]);
}

/** The company's time zone (the default when the company is gone). */
export async function companyTimeZone(sql: Sql, id: number): Promise<string> {
  const row = await sql.maybe<{ time_zone: string }>("SELECT time_zone FROM companies WHERE id = $1", [id]);
  return row?.time_zone ?? DEFAULT_TIME_ZONE;
}

export function setSchedules(sql: Sql, id: number, schedules: ScheduleEntry[]) {
  return sql.exec("UPDATE companies SET schedules = $2::jsonb, updated_at = now() WHERE id = $1", [id, JSON.stringify(schedules)]);
}

export function deleteCompany(sql: Sql, id: number) {
  return sql.exec("DELETE FROM companies WHERE id = $1 AND NOT is_platform", [id]);
}

/** The company's own admin account: the user with the company e-mail, else its oldest admin. */
export function findOwner(sql: Sql, companyId: number, email: string) {
  return sql.maybe<{ id: number; email: string }>(
    `SELECT id, email::text AS email FROM users WHERE company_id = $1 AND (email = $2 OR profile = 'admin')
      ORDER BY (email = $2) DESC, id LIMIT 1`,
    [companyId, email],
  );
}
