import type { Plan, PlanInput, PlanUpdateInput } from "@atende/shared";
import { api } from "../../../lib/api";

export const planKeys = { all: ["plans", "all"] as const };

export function fetchPlans(): Promise<Plan[]> {
  return api<Plan[]>("/plans/all");
}

export function createPlan(input: PlanInput): Promise<Plan> {
  return api<Plan>("/plans", { method: "POST", body: input });
}

export function updatePlan(id: number, input: PlanUpdateInput): Promise<Plan> {
  return api<Plan>(`/plans/${id}`, { method: "PUT", body: input });
}

export function deletePlan(id: number): Promise<unknown> {
  return api(`/plans/${id}`, { method: "DELETE" });
}
