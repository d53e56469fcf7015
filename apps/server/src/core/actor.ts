import type { Actor, PlanFlags, Profile } from "@atende/shared";
import type { Sql } from "../db/sql.js";

/** The authenticated user of a request or socket, read fresh from the database. */
export interface RequestActor extends Actor {
  name: string;
  allTicket: "enable" | "disable";
  tokenVersion: number;
  plan: PlanFlags & { name: string };
  company: { id: number; name: string; dueDate: string | null; status: boolean };
  queueIds: number[];
}

interface ActorRow {
  id: number;
  name: string;
  company_id: number;
  profile: Profile;
  super: boolean;
  all_ticket: "enable" | "disable";
  token_version: number;
  company_name: string;
  due_date: string | null;
  status: boolean;
  plan_name: string;
  use_campaigns: boolean;
  use_schedules: boolean;
  use_internal_chat: boolean;
  use_external_api: boolean;
  use_kanban: boolean;
  use_open_ai: boolean;
  use_integrations: boolean;
  queue_ids: number[];
}

export async function loadActor(sql: Sql, userId: number, companyId: number): Promise<RequestActor | null> {
  const row = await sql.maybe<ActorRow>(
    `SELECT u.id, u.name, u.company_id, u.profile, u.super, u.all_ticket, u.token_version,
            c.name AS company_name, c.due_date, c.status,
            p.name AS plan_name, p.use_campaigns, p.use_schedules, p.use_internal_chat, p.use_external_api,
            p.use_kanban, p.use_open_ai, p.use_integrations,
            COALESCE((SELECT array_agg(uq.queue_id) FROM user_queues uq
                      WHERE uq.company_id = u.company_id AND uq.user_id = u.id), '{}') AS queue_ids
       FROM users u
       JOIN companies c ON c.id = u.company_id
       JOIN plans p ON p.id = c.plan_id
      WHERE u.id = $1 AND u.company_id = $2`,
    [userId, companyId],
  );
  if (!row) return null;
  return {
    id: row.id,
    name: row.name,
    companyId: row.company_id,
    profile: row.profile,
    super: row.super,
    allTicket: row.all_ticket,
    tokenVersion: row.token_version,
    company: { id: row.company_id, name: row.company_name, dueDate: row.due_date, status: row.status },
    plan: {
      name: row.plan_name,
      useCampaigns: row.use_campaigns,
      useSchedules: row.use_schedules,
      useInternalChat: row.use_internal_chat,
      useExternalApi: row.use_external_api,
      useKanban: row.use_kanban,
      useOpenAi: row.use_open_ai,
      useIntegrations: row.use_integrations,
    },
    queueIds: row.queue_ids,
  };
}
