import type { PlanInput, PlanUpdateInput } from "@atende/shared";
import type { Sql } from "../../db/sql.js";

export interface PlanRow {
  id: number;
  name: string;
  users: number;
  connections: number;
  queues: number;
  value: number;
  use_campaigns: boolean;
  use_schedules: boolean;
  use_internal_chat: boolean;
  use_external_api: boolean;
  use_kanban: boolean;
  use_open_ai: boolean;
  use_integrations: boolean;
}

const PLAN_COLUMNS = `id, name, users, connections, queues, value, use_campaigns, use_schedules, use_internal_chat,
  use_external_api, use_kanban, use_open_ai, use_integrations`;

const COLUMN_OF: Record<keyof PlanUpdateInput, string> = {
  name: "name",
  users: "users",
  connections: "connections",
  queues: "queues",
  value: "value",
  useCampaigns: "use_campaigns",
  useSchedules: "use_schedules",
  useInternalChat: "use_internal_chat",
  useExternalApi: "use_external_api",
  useKanban: "use_kanban",
  useOpenAi: "use_open_ai",
  useIntegrations: "use_integrations",
};

// Plans are platform-wide (no company_id): only super administrators write them.
export function listPlans(sql: Sql) {
  return sql.many<PlanRow>(`SELECT ${PLAN_COLUMNS} FROM plans ORDER BY name, id`);
}

export function findPlan(sql: Sql, id: number) {
  return sql.maybe<PlanRow>(`SELECT ${PLAN_COLUMNS} FROM plans WHERE id = $1`, [id]);
}

export async function insertPlan(sql: Sql, input: PlanInput): Promise<number> {
  const keys = Object.keys(COLUMN_OF) as (keyof PlanInput)[];
  const row = await sql.one<{ id: number }>(
    `INSERT INTO plans (${keys.map((k) => COLUMN_OF[k]).join(", ")}) VALUES (${keys.map((_, i) => `$${i + 1}`).join(", ")}) RETURNING id`,
    keys.map((k) => input[k]),
  );
  return row.id;
}

export async function updatePlan(sql: Sql, id: number, patch: PlanUpdateInput): Promise<number> {
  const sets: string[] = [];
  const params: unknown[] = [id];
  for (const [key, column] of Object.entries(COLUMN_OF) as [keyof PlanUpdateInput, string][]) {
    if (patch[key] === undefined) continue;
    params.push(patch[key]);
    sets.push(`${column} = $${params.length}`);
  }
  if (!sets.length) return (await findPlan(sql, id)) ? 1 : 0;
  return sql.exec(`UPDATE plans SET ${sets.join(", ")}, updated_at = now() WHERE id = $1`, params);
}

export async function companiesOnPlan(sql: Sql, id: number): Promise<number> {
  return (await sql.one<{ n: number }>("SELECT count(*)::int AS n FROM companies WHERE plan_id = $1", [id])).n;
}

export function deletePlan(sql: Sql, id: number) {
  return sql.exec("DELETE FROM plans WHERE id = $1", [id]);
}
