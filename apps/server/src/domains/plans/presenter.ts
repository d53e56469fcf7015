import type { Plan, PublicPlan } from "@atende/shared";
import type { PlanRow } from "./repository.js";

export function presentPlan(row: PlanRow): Plan {
  return {
    id: row.id,
    name: row.name,
    users: row.users,
    connections: row.connections,
    queues: row.queues,
    value: Number(row.value),
    useCampaigns: row.use_campaigns,
    useSchedules: row.use_schedules,
    useInternalChat: row.use_internal_chat,
    useExternalApi: row.use_external_api,
    useKanban: row.use_kanban,
    useOpenAi: row.use_open_ai,
    useIntegrations: row.use_integrations,
  };
}

/** What a visitor of the sign-up page sees. */
export function presentPublicPlan(row: PlanRow): PublicPlan {
  return { id: row.id, name: row.name, users: row.users, connections: row.connections, queues: row.queues, value: Number(row.value) };
}
