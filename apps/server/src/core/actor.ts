import type { Actor, PlanFlags, Profile } from "@atende/shared";
import type { Sql } from "../db/sql.js";

/** The authenticated user of a request or socket, read fresh from the database. */
export interface RequestActor extends Actor {
  name: string;
  allTicket: "enable" | "disable";
  tokenVersion: number;
  plan: PlanFlags & { name: string };
  company: { id: number; name: string; dueDate: string | null; status: boolean; isPlatform: boolean };
  /** The session the request or socket was authenticated with (absent when loaded by user id alone). */
  sessionId?: string;
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
  is_platform: boolean;
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

/**
 * The user with company, plan and queues. With `sessionId`, only while that session of the user is
 * live: the check rides on the query every request already makes, so a revoked session is refused
 * on the very next request on every process, with no cache to outlive it.
 */
export async function loadActor(sql: Sql, userId: number, companyId: number, sessionId?: string): Promise<RequestActor | null> {
  const row = await sql.maybe<ActorRow>(
    `SELECT u.id, u.name, u.company_id, u.profile, u.super, u.all_ticket, u.token_version,
            c.name AS company_name, c.due_date, c.status, c.is_platform,
            p.name AS plan_name, p.use_campaigns, p.use_schedules, p.use_internal_chat, p.use_external_api,
            p.use_kanban, p.use_open_ai, p.use_integrations,
            COALESCE((SELECT array_agg(uq.queue_id) FROM user_queues uq
                      WHERE uq.company_id = u.company_id AND uq.user_id = u.id), '{}') AS queue_ids
       FROM users u
       JOIN companies c ON c.id = u.company_id
       JOIN plans p ON p.id = c.plan_id
      WHERE u.id = $1 AND u.company_id = $2
        AND ($3::uuid IS NULL OR EXISTS (SELECT 1 FROM sessions s
                                          WHERE s.id = $3 AND s.company_id = u.company_id AND s.user_id = u.id AND s.revoked_at IS NULL))`,
    [userId, companyId, sessionId ?? null],
    // every request runs it: planned once per pooled connection
    { prepare: true },
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
    company: { id: row.company_id, name: row.company_name, dueDate: row.due_date, status: row.status, isPlatform: row.is_platform },
    sessionId,
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
